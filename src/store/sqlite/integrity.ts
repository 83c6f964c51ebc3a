// Is the database file sound? A damaged page in the middle of a table is otherwise found only by
// the first query that reads it (the expiry sweep, or a payment). PRAGMA quick_check reads every
// page (about 0.4 s per 200 MB here, much more on a cold disk), so it runs on a thread of its own:
// the caller waits up to `timeoutMs`, and past that gets the answer later.
import type { Database } from "bun:sqlite";
import type { IntegrityReport } from "../../core/store.ts";

// In a `bun build --compile` executable the worker is an entry point of its own (scripts/build.ts).
const WORKER = import.meta.url.includes("/$bunfs/") ? "./store/sqlite/check-worker.ts" : new URL("./check-worker.ts", import.meta.url).href;

type Final = Exclude<IntegrityReport, { state: "unfinished" }>;

export function checkIntegrity(db: Database, o: { maxErrors: number; timeoutMs: number }): Promise<IntegrityReport> {
  const path = db.filename;
  if (!path || path === ":memory:") return Promise.resolve({ state: "ok" });
  let worker: Worker;
  try {
    worker = new Worker(WORKER);
  } catch (e) {
    return Promise.resolve({ state: "not checked", reason: e instanceof Error ? e.message : String(e) });
  }
  const result = new Promise<Final>((resolve) => {
    worker.onmessage = (e: MessageEvent<{ problems?: string[]; error?: string }>) => {
      worker.terminate();
      if (e.data.error !== undefined) resolve({ state: "not checked", reason: e.data.error });
      else resolve(e.data.problems!.length === 0 ? { state: "ok" } : { state: "damaged", problems: e.data.problems! });
    };
    worker.onerror = (e) => {
      worker.terminate();
      resolve({ state: "not checked", reason: e.message });
    };
  });
  worker.postMessage({ path, maxErrors: o.maxErrors });
  return new Promise<IntegrityReport>((resolve) => {
    const timer = setTimeout(() => resolve({ state: "unfinished", result, cancel: () => worker.terminate() }), o.timeoutMs);
    void result.then((r) => {
      clearTimeout(timer);
      resolve(r);
    });
  });
}
