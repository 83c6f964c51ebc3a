// The create's slot search and a report's order search read the orders_slot index by account and
// amount (and, amount by amount, by until when an order holds it: migration 035), never every
// pending order: with the report group's IN (subquery) and no ANALYZE
// statistics SQLite chose an OR over the status indexes, which read every pending order on every
// create (5 ms a create at 20,000 pending orders, growing with them).
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { migrate } from "../../src/store/migrate.ts";
import { GROUP_MEMBERS, heldAtSql, takenByAmountSql, takenSql } from "../../src/store/sqlite/channels.ts";
import { ordersByAmountSql } from "../../src/store/sqlite/report-match.ts";
import { SLOT_HELD } from "../../src/store/sqlite/slots.ts";

const plan = (db: Database, sql: string, bind: Record<string, unknown>) =>
  (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(bind as never) as { detail: string }[]).map((r) => r.detail).join("; ");

test("the slot search of a create walks orders_slot by account and amount, or seeks each amount's held orders", () => {
  const db = new Database(":memory:");
  migrate(db);
  const bind = { account: 1, unpaid_since: 1, min: 1, max: 2 };
  expect(plan(db, takenSql(), bind)).toContain("SEARCH orders USING COVERING INDEX orders_slot (account_id=? AND trade_amount>? AND trade_amount<?)");
  // By amount, the index's third column (HELD_UNTIL) bounds the seek: only the orders still holding the amount are read.
  expect(plan(db, takenByAmountSql(), bind)).toContain("SEARCH orders EXISTS USING COVERING INDEX orders_slot (account_id=? AND trade_amount=? AND <expr>>?)");
  // Amount by amount from the rule's first candidate (a range too dense to walk): the same seek.
  expect(plan(db, heldAtSql(), { account: 1, amount: 1, unpaid_since: 1 })).toContain("SEARCH orders USING COVERING INDEX orders_slot (account_id=? AND trade_amount=? AND <expr>>?)");
  const held = `SELECT trade_no FROM orders INDEXED BY orders_slot WHERE account_id IN (${GROUP_MEMBERS}) AND trade_amount BETWEEN $min AND $max AND ${SLOT_HELD}`;
  expect(plan(db, held, bind)).toContain("orders_slot (account_id=? AND trade_amount>? AND trade_amount<?)");
});

test("a payment report's search for an exact amount seeks the orders that still hold it", () => {
  const db = new Database(":memory:");
  migrate(db);
  expect(plan(db, ordersByAmountSql(), { ids: "[1,2]", amount: 1000, unpaid_since: 1 })).toContain("orders_slot (account_id=? AND trade_amount=? AND <expr>>?)");
});
