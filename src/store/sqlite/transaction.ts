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

/**
 * Runs `work` inside the transaction or savepoint already open (a unit of the group commit, whose
 * savepoint rolls back with whatever `work` wrote when it throws), or in its own BEGIN IMMEDIATE
 * when none is: a step of a unit, such as a payment or a stored report inside a report's
 * settlement, needs no savepoint of its own (a SAVEPOINT and a RELEASE, and the statement journal
 * of every page it touches). Only for steps whose callers never catch their errors.
 */
export function joined<T>(db: Database, work: () => T): T {
  return db.inTransaction ? work() : inTransaction(db, work);
}
