// PostgreSQL 035/036: the slot conditions the store writes (slots.ts slotHeld, heldUntil) are the
// expression orders_slot indexes, word for word, so a report's search for an exact amount and the
// allocator's lookup of one amount are bounded by it in the index: with another text the planner
// would read every order of the amount, held or not. Under generic plans (the create function's),
// with the history analysed. Each fails when slots.ts's text stops matching 035's index.
import { expect, test } from "bun:test";
import { heldUntil, slotHeld } from "../../src/store/postgres/slots.ts";
import { account, merchant } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";
import { onNewDatabase } from "./new-database.ts";

withPostgres(() => {
  const cluster = clusterPerFile();

  test("a search for an exact amount is bounded in orders_slot by until when an order holds it", async () => {
    await onNewDatabase(cluster, "slotplans", { max: 2 }, async (store, sql) => {
      await merchant(store);
      const a = await account(store);
      await sql`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at, seq)
        SELECT 'H' || (100000000000000000 + i), 1001, 'h' || i, 'native', 'alipay', 'VIP', 1000, 1000 + i % 5, ${a.id}, 2, 1700000000 + i, 1700000300 + i, 1700000060 + i, i + 1
        FROM generate_series(1, 20000) i`;
      await sql`ANALYZE orders`;
      const plan = async (q: PromiseLike<unknown>) => ((await q) as { "QUERY PLAN": string }[]).map((r) => r["QUERY PLAN"]).join("\n");
      await sql`SET plan_cache_mode = force_generic_plan`;
      const report = await plan(sql`EXPLAIN SELECT * FROM orders WHERE account_id = ANY(${[a.id]}::bigint[]) AND trade_amount = ${1000} AND ${slotHeld(sql, 1_800_000_000)}`);
      expect(report).toContain("orders_slot");
      expect(report).toMatch(/Index Cond: .*trade_amount = .*CASE status WHEN 1 THEN expire_time/);
      const lookup = await plan(sql`EXPLAIN SELECT 1 FROM orders WHERE account_id = ${a.id} AND trade_amount = ${1000} AND ${slotHeld(sql, 1_800_000_000)} ORDER BY ${heldUntil(sql)} LIMIT 1`);
      expect(lookup).toMatch(/Index Cond: .*trade_amount = .*CASE status WHEN 1 THEN expire_time/);
    });
  }, 60_000);
});
