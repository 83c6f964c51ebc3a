// The create's slot search and a report's order search read the orders_slot index by account and
// amount, never every pending order: with the report group's IN (subquery) and no ANALYZE
// statistics SQLite chose an OR over the status indexes, which read every pending order on every
// create (5 ms a create at 20,000 pending orders, growing with them).
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { migrate } from "../../src/store/migrate.ts";
import { GROUP_MEMBERS, takenSql } from "../../src/store/sqlite/channels.ts";
import { SLOT_HELD } from "../../src/store/sqlite/slots.ts";

const plan = (db: Database, sql: string, bind: Record<string, unknown>) =>
  (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(bind as never) as { detail: string }[]).map((r) => r.detail).join("; ");

test("the slot search of a create walks orders_slot by account and amount", () => {
  const db = new Database(":memory:");
  migrate(db);
  expect(plan(db, takenSql(), { account: 1, unpaid_since: 1, min: 1, max: 2 })).toStartWith("SEARCH orders USING COVERING INDEX orders_slot (account_id=? AND trade_amount>? AND trade_amount<?)");
  const held = `SELECT trade_no FROM orders INDEXED BY orders_slot WHERE account_id IN (${GROUP_MEMBERS}) AND trade_amount BETWEEN $min AND $max AND ${SLOT_HELD}`;
  expect(plan(db, held, { account: 1, unpaid_since: 1, min: 1, max: 2 })).toContain("orders_slot (account_id=? AND trade_amount>? AND trade_amount<?)");
});
