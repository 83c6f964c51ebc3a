// WAL checkpoints on a thread of their own while the server runs. With SQLite's automatic
// checkpoint, the commit that crosses 1000 WAL pages copies them all into the database file and
// syncs it before the event loop goes on: an 8-10 ms pause every few hundred creates under load,
// paid by every request waiting on that turn of the loop (it was the p99 of order/create).
// A worker thread now checkpoints every few milliseconds. The writer's own automatic checkpoint
// stays, at a larger WAL: a PASSIVE checkpoint cannot rewind the WAL while commits keep coming,
// so now and then the writer's checkpoint finds almost every page already copied, syncs, and lets
// the next commit start the WAL from the beginning. It is also the safety valve for a thread that
// falls behind or died.
import type { Database } from "bun:sqlite";

export interface Checkpointer {
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  everyMs?: number;
  /** The writer checkpoints by itself once the WAL holds this many pages. */
  writerPages?: number;
  /** The thread ran a checkpoint (at most once a second): /healthz shows it alive. */
  onBeat?: () => void;
  onError?: (message: string) => void;
}

const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

// In a `bun build --compile` executable the worker is an entry point of its own, addressed by its
// path below the common root of the entry points (src/), not beside this module.
const WORKER = import.meta.url.includes("/$bunfs/") ? "./store/sqlite/checkpoint-worker.ts" : new URL("./checkpoint-worker.ts", import.meta.url).href;

export function startCheckpointer(db: Database, o: CheckpointerOptions = {}): Checkpointer {
  const path = db.filename;
  if (!path || path === ":memory:") return { async stop() {} };
  const worker = new Worker(WORKER);
  const giveBack = () => db.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  let stopped: (() => void) | null = null;
  worker.onmessage = (e: MessageEvent) => {
    if (e.data === "beat") o.onBeat?.();
    else if (e.data === "stopped") stopped?.();
    else if (e.data?.error) o.onError?.(e.data.error);
  };
  worker.onerror = (e) => {
    giveBack(); // the writer checkpoints as it did before
    o.onError?.(e.message);
  };
  db.exec(`PRAGMA wal_autocheckpoint = ${o.writerPages ?? 10_000}`);
  worker.postMessage({ path, everyMs: o.everyMs ?? 20 });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timeout);
          worker.terminate();
          giveBack();
          resolve();
        };
        const timeout = setTimeout(done, 2000);
        stopped = done;
        worker.postMessage("stop");
      }),
  };
}
