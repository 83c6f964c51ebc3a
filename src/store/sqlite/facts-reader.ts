// The alert conditions' facts, read off the event loop. readFacts groups every pending order by
// account (the offline-account condition): on the loop that held every request for 7.5 ms at
// 20,000 pending orders, 39 ms at 100,000 and 121 ms at 300,000, once per evaluation (every 15 s).
// On a database file a thread of its own (facts-worker.ts, a read-only connection) runs it, and
// the loop only waits for the answer. Everything the loop committed before the call is in the
// thread's snapshot, as it would be in the loop's. An in-memory database, or a thread that died,
// reads on the loop as before; a death is reported once (`onError`: serve's log and /healthz's
// failed task), since the loop then pays for the reads again.
import type { Database } from "bun:sqlite";
import type { FactQuery, StoredFacts } from "../../core/alerts/store.ts";
import { readFacts } from "./alert-facts.ts";

// In a `bun build --compile` executable the worker is an entry point of its own (scripts/build.ts).
const WORKER = import.meta.url.includes("/$bunfs/") ? "./store/sqlite/facts-worker.ts" : new URL("./facts-worker.ts", import.meta.url).href;

type Answer = { id: number; facts: StoredFacts } | { id: number; error: string } | { fatal: string };

export interface FactsReader {
  read(q: FactQuery): Promise<StoredFacts>;
  close(): void;
}

export interface FactsReaderOptions {
  /** The file the thread opens (the store's own by default; a test names one it cannot open). */
  path?: string;
  onError?: (message: string) => void;
}

/** How long close() waits for the thread to close its connection (a read in flight finishes first). */
const CLOSE_WAIT_MS = 2000;

/**
 * Asks the thread to close its connection and waits for it, blocking (store.close() is
 * synchronous). Terminating the thread leaves its connection open, and while any connection of
 * the process is open the writer's close is not the last one: SQLite then neither checkpoints the
 * log nor removes the -wal and -shm files, so a server stopped cleanly left its latest commits in
 * the -wal file beside the database (a copy of the database file alone missed them).
 */
function closeConnection(worker: Worker): void {
  const done = new Int32Array(new SharedArrayBuffer(4));
  worker.postMessage({ close: done });
  Atomics.wait(done, 0, 0, CLOSE_WAIT_MS);
}

export function factsReader(db: Database, o: FactsReaderOptions = {}): FactsReader {
  const path = o.path ?? db.filename;
  const onLoop = (q: FactQuery) => Promise.resolve().then(() => readFacts(db, q));
  if (!path || path === ":memory:") return { read: onLoop, close() {} };
  let worker: Worker | null = null;
  let dead = false;
  let nextId = 1;
  const waiting = new Map<number, { q: FactQuery; resolve(f: StoredFacts): void; reject(e: unknown): void }>();
  /** The thread is gone: what it was asked is read on the loop, and so is everything after. */
  const died = (why: string) => {
    if (dead) return;
    dead = true;
    worker?.terminate();
    worker = null;
    o.onError?.(`alert facts thread: ${why}; reading them on the event loop`);
    for (const w of waiting.values()) onLoop(w.q).then(w.resolve, w.reject);
    waiting.clear();
  };
  const start = (): Worker => {
    const w = new Worker(WORKER);
    (w as Worker & { unref(): void }).unref(); // an evaluation in flight does not keep a stopping process alive
    w.onmessage = (e: MessageEvent<Answer>) => {
      const a = e.data;
      if ("fatal" in a) return died(a.fatal);
      const p = waiting.get(a.id);
      if (!p) return;
      waiting.delete(a.id);
      if ("error" in a) p.reject(new Error(a.error));
      else p.resolve(a.facts);
    };
    w.onerror = (e) => died(e.message);
    w.postMessage({ path });
    return w;
  };
  return {
    read(q) {
      if (dead) return onLoop(q);
      worker ??= start();
      const id = nextId++;
      return new Promise<StoredFacts>((resolve, reject) => {
        waiting.set(id, { q, resolve, reject });
        worker!.postMessage({ id, q });
      });
    },
    close() {
      if (worker && !dead) closeConnection(worker);
      worker?.terminate();
      worker = null;
      dead = true;
      for (const w of waiting.values()) w.reject(new Error("the store is closed"));
      waiting.clear();
    },
  };
}
