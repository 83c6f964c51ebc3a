// Ids listed in a statement on PostgreSQL (listed.ts): a report's read of the orders that hold its
// amount (report-match.ts ordersByTradeAmount) answers what the array statement it replaced
// answered, with the accounts listed and past LISTED; a paid report's statements and its delivery's
// acknowledgement are planned once per connection instead of at every report (that read was, with
// one account, and the acknowledgement of a batch under ten); and the settlement reads no order
// table whole. Planning is counted by pg_stat_statements (track_planning), loaded by this
// file's own cluster.
import { SQL } from "bun";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { LISTED } from "../../src/store/postgres/listed.ts";
import { ordersByTradeAmount } from "../../src/store/postgres/report-match.ts";
import { slotHeld } from "../../src/store/postgres/slots.ts";
import { account, claim, create, merchant, settleUnit, T0 } from "../store-contract/harness.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";
import { onNewDatabase } from "./new-database.ts";
import { seeded } from "../seeded.ts";

withPostgres(() => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startCluster({ settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all", "pg_stat_statements.track_planning": "on" } });
  }, 120_000);
  afterAll(() => cluster?.stop());
  const perFile = () => cluster;

  test("the read answers what the array statement answers, accounts listed or not, on random orders (3 seeds)", async () => {
    await onNewDatabase(perFile, "slot_orders_same", { max: 2 }, async (store, sql) => {
      await merchant(store);
      const ids: number[] = [];
      for (let i = 0; i < LISTED + 4; i++) ids.push((await account(store, { code: `same-${i}` })).id);
      for (const seed of [1, 2, 3]) {
        const r = seeded(seed);
        const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
        // Every status, each of the three end times set or not, a few amounts shared by the accounts.
        const rows = Array.from({ length: 600 }, (_, i) => {
          const seq = seed * 1000 + i;
          const status = pick([1, 2, 3, 4, 5]);
          const created = T0 + Math.floor(r() * 2_000);
          return {
            seq, trade_no: `S${seed}${String(i).padStart(17, "0")}`, out_trade_no: `s${seed}-${i}`, account_id: r() < 0.1 ? null : pick(ids),
            trade_amount: 1000 + Math.floor(r() * 6), status, created_at: created, expire_time: created + 300,
            paid_at: status === 2 ? created + Math.floor(r() * 600) : null, closed_at: status === 3 ? created + Math.floor(r() * 600) : null,
          };
        });
        await sql`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at, closed_at, seq)
          SELECT trade_no, 1001, out_trade_no, 'native', 'alipay', 'VIP', trade_amount, trade_amount, account_id, status, created_at, expire_time, paid_at, closed_at, seq
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb)
            AS x(seq bigint, trade_no text, out_trade_no text, account_id bigint, trade_amount bigint, status int, created_at bigint, expire_time bigint, paid_at bigint, closed_at bigint)`;
        let nonEmpty = 0;
        let listed = 0;
        for (let k = 0; k < 80; k++) {
          // From none to every account: both of the read's forms.
          const share = pick([0.05, 0.2, 0.5, 0.95]);
          const accounts = ids.filter(() => r() < share);
          if (accounts.length <= LISTED) listed++;
          const amount = 1000 + Math.floor(r() * 7);
          const since = T0 + Math.floor(r() * 2_600);
          const names = (xs: { trade_no: string }[]) => xs.map((x) => x.trade_no).sort();
          const read = (await ordersByTradeAmount(sql, accounts, amount, since)).map((o) => o.tradeNo).sort();
          const viaArray = names(await sql`SELECT * FROM orders WHERE account_id = ANY(${accounts}::bigint[]) AND trade_amount = ${amount} AND ${slotHeld(sql, since)}`);
          expect(read).toEqual(viaArray);
          if (read.length > 0) nonEmpty++;
        }
        // The draws found orders, not only empty answers, and took both forms.
        expect(nonEmpty).toBeGreaterThan(10);
        expect(listed).toBeGreaterThan(10);
        expect(listed).toBeLessThan(80);
      }
    });
  }, 120_000);

  test("a paid report's statements and its acknowledgement are planned once per connection, not at every report", async () => {
    await onNewDatabase(perFile, "slot_orders_plans", { max: 1 }, async (store, sql) => {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
      await merchant(store);
      await account(store); // one account: the case a generic plan reckoning with ten lost to
      const settle = async (i: number) => {
        const order = await create(store, { outTradeNo: `plan-${i}`, amount: 1000 + i * 100 });
        const r = await store.settleReport(settleUnit(claim({ amount: order.tradeAmount! }), { dedupeKey: `plan-${i}` }));
        expect({ i, outcome: r.outcome, tradeNo: r.tradeNo }).toEqual({ i, outcome: "matched", tradeNo: order.tradeNo });
        // Its notification delivered: the acknowledgement, a batch of one.
        const at = (T0 + 20) * 1000;
        await store.recordNotificationAttempt(r.pay!.kind === "paid" ? r.pay!.notificationId! : 0, {
          attempt: { attemptedAt: at, durationMs: 1, httpStatus: 200, body: "success", error: "", acknowledged: true }, status: "delivered", nextAttemptAt: at,
        });
      };
      for (let i = 0; i < 8; i++) await settle(i); // the custom plans every prepared statement starts with
      await sql`SELECT pg_stat_statements_reset()`;
      const N = 30;
      for (let i = 8; i < 8 + N; i++) await settle(i);
      const planned = await sql`
        SELECT s.query, s.plans::int AS plans, s.calls::int AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = current_database() AND s.calls >= ${N} AND s.plans >= ${N / 2} ORDER BY s.plans DESC`;
      expect(planned.map((p: { query: string; plans: number; calls: number }) => `${p.plans}/${p.calls} ${p.query.replace(/\s+/g, " ").slice(0, 100)}`)).toEqual([]);
      // And the orders' read is among what was counted, once per report, its accounts listed.
      const reads = await sql`
        SELECT s.calls::int AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = current_database() AND s.toplevel AND s.query LIKE '%FROM orders WHERE account_id IN%'`;
      expect(reads.map((r: { calls: number }) => r.calls)).toEqual([N]);
      const acks = await sql`
        SELECT s.calls::int AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = current_database() AND s.toplevel AND s.query LIKE 'UPDATE notifications n SET attempts%'`;
      expect(acks.map((r: { calls: number }) => r.calls)).toEqual([N]);
    });
  }, 120_000);

  test("a report's settlement reads no order table whole, on a table small enough for that to look cheaper", async () => {
    await onNewDatabase(perFile, "slot_orders_small", { max: 1 }, async (store, sql) => {
      await merchant(store);
      const a = await account(store);
      await sql`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at, seq)
        SELECT 'W' || (100000000000000000 + i), 1001, 'w' || i, 'native', 'alipay', 'VIP', 1000, 100000 + i, ${a.id}, CASE WHEN i % 3 = 0 THEN 1 ELSE 2 END,
          ${T0} + i, ${T0} + 300 + i, ${T0} + 60 + i, i FROM generate_series(1, 800) i`;
      // Not analysed, as a new instance's table: the planner's guesses make a whole read look cheaper.
      const seqScans = async () => {
        await sql`SELECT pg_stat_force_next_flush()`;
        const [t] = await sql`SELECT seq_scan::int AS seq FROM pg_stat_user_tables WHERE relname = 'orders'`;
        return t.seq as number;
      };
      const settle = async (i: number) => {
        const order = await create(store, { outTradeNo: `small-${i}`, amount: 1000 + i * 100 });
        const r = await store.settleReport(settleUnit(claim({ amount: order.tradeAmount! }), { dedupeKey: `small-${i}` }));
        expect({ outcome: r.outcome, tradeNo: r.tradeNo }).toEqual({ outcome: "matched", tradeNo: order.tradeNo });
      };
      for (let i = 0; i < 8; i++) await settle(i);
      const before = await seqScans();
      for (let i = 8; i < 20; i++) await settle(i);
      expect((await seqScans()) - before).toBe(0);
    });
  }, 120_000);
});
