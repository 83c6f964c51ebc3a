import type { Database } from "bun:sqlite";

type Run = (work: () => unknown) => unknown;
const wrappers = new WeakMap<Database, Run>();

/**
 * Runs `work` in a BEGIN IMMEDIATE transaction, or in a savepoint when one is open already (a
 * group commit). bun:sqlite's transaction() builds a new wrapper per call; on the create path that
 * was a measurable share of the CPU, so each database keeps one.
 */
export function inTransaction<T>(db: Database, work: () => T): T {
  let run = wrappers.get(db);
  if (!run) {
    const tx = db.transaction((w: () => unknown) => w());
    run = (w) => tx.immediate(w);
    wrappers.set(db, run);
  }
  return run(work) as T;
}
