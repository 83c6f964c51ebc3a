// WAL checkpoints on a thread of their own while the server runs. With SQLite's automatic
// checkpoint, the commit that crosses 1000 WAL pages copies them all into the database file and
// syncs it before the event loop goes on: an 8-10 ms pause every few hundred creates under load,
// paid by every request waiting on that turn of the loop (it was the p99 of order/create).
// A worker thread now flushes the log every 20 ms (the window a power cut can take, as SQLite's
// `synchronous = NORMAL` syncs the log only when it checkpoints) and checkpoints every 100 ms
// (checkpoint-worker.ts). A PASSIVE checkpoint cannot rewind the
// WAL while commits keep coming, so the log only grew until the writer's own checkpoint, at 10,000
// pages, synced the files inside a commit and let the next one start over: under load that stalled
// the event loop for 20-90 ms several times a second and halved the creates (bench/server-cpu.ts,
// 2026-11-28). Now, once the log holds `rewindPages`, the thread asks the store to hold its next
// write batch (requests go on being read and queued), copies the last frames while nothing
// commits, and lets it go: the next commit starts the log from its beginning. The writer's own
// checkpoint stays, at twice that log, as the safety valve for a thread that falls behind; when the
// thread fails or stops, the writer gets SQLite's default back.
import type { Database } from "bun:sqlite";

export interface Checkpointer {
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  /** The log is flushed to the disk this often: the commits a power cut can take (default 20 ms). */
  syncMs?: number;
  /** The log is copied into the database file this often (default 100 ms; not less than syncMs). */
  copyMs?: number;
  /** The writer checkpoints by itself once the WAL holds this many pages. */
  writerPages?: number;
  /** The thread rewinds the log (see above) once it holds this many pages; 0: never. */
  rewindPages?: number;
  /** Hold write batches until `resume` (the store's group commit); absent: the log is never rewound. */
  hold?: { pause(): void; resume(): void };
  /** Writes are held at most this long for a rewind (default HOLD_MAX_MS); tests on a slow disk raise it. */
  holdMaxMs?: number;
  /** The thread is alive (at most once a second; /healthz shows it), with its flushes, copies and flushes of the database file before a rewind so far. */
  onBeat?: (done: { syncs: number; copies: number; presyncs: number }) => void;
  onError?: (message: string) => void;
}

const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/**
 * 256 MiB of 4 KiB pages: at 2.7 pages a create, a rewind every ~24,000 creates under full load
 * (and none at all under light load, where the thread's own checkpoints catch up between commits
 * and the next write starts the log over by itself). Each rewind holds the writes for its last
 * checkpoint's two syncs, whose time on this machine's disk grows with the database: 5-14 ms on a
 * fresh one, 21-39 ms past 300,000 orders. At 4,000 pages (16 MiB) that was 128 holds in 22 s of
 * full load; at 16,384 (64 MiB) still two a second, and the requests they held made the p99 (12,
 * 18, 29 ms over three rounds of `npm run bench`'s size, against 11, 11, 12 at this size:
 * docs/benchmarks.md, 2026-11-28 19:55). The log's file keeps the largest size it reached until the
 * server stops.
 */
const REWIND_PAGES = 65_536;
/** The writer's own checkpoint: only if the thread falls far behind (its rewind is at half this). */
const WRITER_PAGES = 131_072;
const SYNC_MS = 20;
const COPY_MS = 100;
/** Writes are held at most this long for a rewind: a hold cut short rewinds nothing. */
const HOLD_MAX_MS = 250;

// In a `bun build --compile` executable the worker is an entry point of its own, addressed by its
// path below the common root of the entry points (src/), not beside this module.
const WORKER = import.meta.url.includes("/$bunfs/") ? "./store/sqlite/checkpoint-worker.ts" : new URL("./checkpoint-worker.ts", import.meta.url).href;

export function startCheckpointer(db: Database, o: CheckpointerOptions = {}): Checkpointer {
  const path = db.filename;
  if (!path || path === ":memory:") return { async stop() {} };
  const worker = new Worker(WORKER);
  const giveBack = () => db.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  let stopped: (() => void) | null = null;
  let held: ReturnType<typeof setTimeout> | null = null;
  const release = () => {
    if (!held) return;
    clearTimeout(held);
    held = null;
    o.hold?.resume();
  };
  worker.onmessage = (e: MessageEvent) => {
    if (e.data?.beat) o.onBeat?.(e.data.beat);
    else if (e.data === "pause" && o.hold) {
      // Between turns: no write transaction is open now, so the held store commits nothing more.
      o.hold.pause();
      held = setTimeout(release, o.holdMaxMs ?? HOLD_MAX_MS); // a thread that never answers must not stop the writes
      worker.postMessage("paused");
    } else if (e.data === "resume") release();
    else if (e.data === "stopped") stopped?.();
    else if (e.data?.error) o.onError?.(e.data.error);
  };
  worker.onerror = (e) => {
    giveBack(); // the writer checkpoints as it did before
    release();
    o.onError?.(e.message);
  };
  db.exec(`PRAGMA wal_autocheckpoint = ${o.writerPages ?? WRITER_PAGES}`);
  worker.postMessage({ path, syncMs: o.syncMs ?? SYNC_MS, copyMs: o.copyMs ?? COPY_MS, rewindPages: o.hold ? (o.rewindPages ?? REWIND_PAGES) : 0 });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timeout);
          worker.terminate();
          release();
          giveBack();
          resolve();
        };
        const timeout = setTimeout(done, 2000);
        stopped = done;
        worker.postMessage("stop");
      }),
  };
}
