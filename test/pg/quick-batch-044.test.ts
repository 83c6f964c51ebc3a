// Migration 044 on PostgreSQL: a batch runs its units in one block (one subtransaction for them
// all) while none fails, and 043's careful way (a subtransaction each) when one does or when its
// first unit was busy before. Counted by the transaction ids a batch uses (a subtransaction that
// writes takes one of its own), and by the end row's 'quick' / 'careful'. A batch sent the careful
// way by a failing unit answers and keeps what 043 did: the other units created once each, their
// rollup counts once, the failing one busy.
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { batchElement, batchStats } from "../../src/store/postgres/create-batch.ts";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { account, createUnit, merchant, newOrder } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";
import { onNewDatabase } from "./new-database.ts";

type Row = { i: number; outcome: string; trade_no: string | null; fail_reason: string | null; error_state: string | null };

withPostgres(() => {
  const cluster = clusterPerFile();

  /** A new database with a merchant and four accounts (onNewDatabase: both connections closed after). */
  const withAccounts = (name: string, body: (store: PostgresStore, sql: SQL) => Promise<void>) =>
    onNewDatabase(cluster, name, { max: 4 }, async (store, sql) => {
      await merchant(store);
      for (let i = 0; i < 4; i++) await account(store);
      await body(store, sql);
    });

  const xid = async (sql: SQL) => Number((await sql`SELECT txid_current() AS x`)[0].x);
  const batch = (sql: SQL, units: ReturnType<typeof batchElement>[]) =>
    sql`SELECT * FROM xpay_create_orders(${JSON.stringify(units)}::text::jsonb)` as Promise<Row[]>;

  test("a batch in which nothing fails: its units in one subtransaction, not one each", async () => {
    await withAccounts("quick", async (store, sql) => {
      await store.createOrder(createUnit(newOrder({ amount: 900 }))); // the pool open, the plans made
      const before = { ...batchStats };
      const x0 = await xid(sql);
      const n = 24;
      const made = await Promise.all(Array.from({ length: n }, (_, i) => store.createOrder(createUnit(newOrder({ amount: 1000 + i })))));
      const used = (await xid(sql)) - x0 - 1; // less the reading's own
      expect(made.every((m) => m.kind === "created" && m.order.status === 1)).toBe(true);
      const batches = batchStats.batches - before.batches;
      expect(batches).toBeGreaterThanOrEqual(1);
      expect(batchStats.careful - before.careful).toBe(0);
      // Each batch: its transaction and the block's subtransaction; 043's way took one more a unit.
      // (Transaction ids are the cluster's: another database's autovacuum may take one meanwhile.)
      expect(used).toBeGreaterThanOrEqual(2 * batches);
      expect(used).toBeLessThanOrEqual(2 * batches + 2);
      expect(used).toBeLessThan(batches + n);
    });
  }, 60_000);

  test("a unit that fails sends its batch the careful way: the others created once, counted once, it busy", async () => {
    await withAccounts("careful", async (store, sql) => {
      await store.createOrder(createUnit(newOrder({ amount: 900 }), { newTradeNo: () => "T-TAKEN" }));
      const units = [
        createUnit(newOrder({ outTradeNo: "C1", amount: 1000 })),
        createUnit(newOrder({ outTradeNo: "C2", amount: 1001 })),
        createUnit(newOrder({ outTradeNo: "C3", amount: 1002 }), { newTradeNo: () => "T-TAKEN" }), // can never insert
        createUnit(newOrder({ outTradeNo: "C4", amount: 1003 })),
      ];
      const pending0 = Number((await sql`SELECT COALESCE(sum(created), 0) AS n FROM order_rollup_pending`)[0].n);
      const rows = await batch(sql, units.map((u, i) => batchElement(i + 1, u, false)));
      expect(rows.find((r) => r.outcome === "end")?.fail_reason).toBe("careful");
      const by = (i: number) => rows.find((r) => r.i === i)!;
      for (const i of [1, 2, 4]) expect(by(i)).toMatchObject({ outcome: "created", error_state: null });
      expect(by(3)).toMatchObject({ outcome: "busy", error_state: "XP002" });
      const stored = (await sql`SELECT out_trade_no, trade_no FROM orders WHERE out_trade_no LIKE 'C%' ORDER BY 1`) as { out_trade_no: string; trade_no: string }[];
      expect(stored).toEqual([1, 2, 4].map((i) => ({ out_trade_no: `C${i}`, trade_no: by(i).trade_no! })));
      // The quick block's counts went with it: three new orders, counted once.
      const pending = Number((await sql`SELECT COALESCE(sum(created), 0) AS n FROM order_rollup_pending`)[0].n);
      expect(pending - pending0).toBe(3);
    });
  }, 60_000);

  test("a batch whose first unit was busy goes the careful way from the start; one without, the quick way", async () => {
    await withAccounts("first", async (store, sql) => {
      const unit = (otn: string, amount: number) => createUnit(newOrder({ outTradeNo: otn, amount }));
      const careful = await batch(sql, [batchElement(1, unit("F1", 1000), true), batchElement(2, unit("F2", 1001), false)]);
      expect(careful.find((r) => r.outcome === "end")?.fail_reason).toBe("careful");
      expect(careful.filter((r) => r.outcome === "created").map((r) => r.i)).toEqual([1, 2]);
      // Only the first unit's busy counts: a later one's does not make the batch careful.
      const x0 = await xid(sql);
      const quick = await batch(sql, Array.from({ length: 6 }, (_, k) => batchElement(k + 1, unit(`Q${k + 1}`, 1002 + k), k === 1)));
      const used = (await xid(sql)) - x0 - 1;
      expect(used).toBeGreaterThanOrEqual(2);
      expect(used).toBeLessThanOrEqual(3); // 043's way: 7
      expect(quick.find((r) => r.outcome === "end")?.fail_reason).toBe("quick");
      expect(quick.filter((r) => r.outcome === "created").map((r) => r.i)).toEqual([1, 2, 3, 4, 5, 6]);
      // A repeated out_trade_no is answered from the stored order in either way.
      const again = await batch(sql, [batchElement(1, unit("Q1", 1002), false)]);
      expect(again.find((r) => r.i === 1)?.outcome).toBe("existing");
      expect(await store.createOrder(unit("Z", 1010))).toMatchObject({ kind: "created", order: { status: 1 } }); // the store still answers after direct calls
    });
  }, 60_000);
});
