// A column tested against a list of ids, written so that PostgreSQL keeps the statement's generic
// plan. With an array (`= ANY($1)`) the generic plan reckons with ten elements: for fewer it costs
// more than each call's custom plan, so PostgreSQL plans the statement again at every call (a
// report's read of the orders holding its amount, one to three accounts: 0.27-0.28 ms of planning
// against 0.04 ms to run it; docs/benchmarks.md, 2026-12-03 16:33). Listed (`IN ($1, ..., $n)`, a
// prepared statement per count) the generic plan knows the count and is kept after the first five
// calls. Past LISTED ids the array: its generic plan is then the cheaper one, and the statements
// per connection stay bounded.
import type { SQL } from "bun";

export const LISTED = 16;

/** `IN ($1, ..., $n)` for up to LISTED ids, `= ANY($1::bigint[])` past that; never empty. */
export function amongIds(sql: SQL, ids: number[]) {
  if (ids.length === 0) throw new Error("amongIds: no ids");
  const whole = ids.map((id) => Math.trunc(id));
  return whole.length <= LISTED ? sql`IN ${sql(whole)}` : sql`= ANY(${whole}::bigint[])`;
}
