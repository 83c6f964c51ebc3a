// Migration 043 on PostgreSQL: a batch's unit runs xpay_create_order_row, whose answer is a value,
// so a create costs the batch no statement beyond the create's own (the order lookup, the account's
// claim, the walk of its amounts, the stamp, the trade_no check, the insert) and the insert's two
// foreign-key checks. Counted by pg_stat_statements with nested statements tracked: 028's way ran
// four more a create (the function scan, the lock's PERFORM, two RETURN QUERYs).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { account, createUnit, merchant, newOrder } from "../store-contract/harness.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

withPostgres(() => {
  let cluster: PgCluster | null = null;
  beforeAll(async () => {
    cluster = await startCluster({ settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" } });
  }, 120_000);
  afterAll(() => cluster?.stop());

  test("a batch's creates: six statements each and the insert's two key checks, nothing for their answers", async () => {
    const url = await cluster!.createDatabase("rows");
    const store = PostgresStore.open(url, { max: 4 });
    const sql = new SQL(url, { max: 1 });
    try {
      await merchant(store);
      for (let i = 0; i < 4; i++) await account(store);
      await sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
      // A first batch prepares the statements (planning is not counted in calls, but keep it out).
      await Promise.all(Array.from({ length: 8 }, (_, i) => store.createOrder(createUnit(newOrder({ outTradeNo: `W${i}`, amount: 1000 + i })))));
      await sql`SELECT pg_stat_statements_reset()`;
      const n = 40;
      const made = await Promise.all(Array.from({ length: n }, (_, i) => store.createOrder(createUnit(newOrder({ outTradeNo: `N${i}`, amount: 2000 + i })))));
      expect(made.every((m) => m.kind === "created" && m.order.status === 1)).toBe(true);
      const rows = (await sql`SELECT query, calls::int AS calls, toplevel FROM pg_stat_statements
        WHERE query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE 'SELECT * FROM xpay_create_orders%'`) as { query: string; calls: number; toplevel: boolean }[];
      const nested = rows.filter((r) => !r.toplevel);
      const perCreate = nested.reduce((t, r) => t + r.calls, 0) / n;
      // What 028 ran for every unit and 043 does not.
      expect(nested.filter((r) => /FROM xpay_create_order\(|pg_advisory_xact_lock/.test(r.query)).map((r) => r.query)).toEqual([]);
      // Eight a create (8.2-8.9 seen: the batches' own statements, the units' JSON read and the
      // fold; a unit that met a held account runs the rule's pass too); 028's way ran 12.
      expect(perCreate).toBeGreaterThanOrEqual(8);
      expect(perCreate).toBeLessThan(10);
    } finally {
      await store.end();
      await sql.close();
    }
  });
});
