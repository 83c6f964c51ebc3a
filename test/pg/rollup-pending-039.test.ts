// Migration 039 on PostgreSQL: the income rollup's counts go through pending rows, folded once a
// second. What the figures must be is the store contract's (test/store-contract/rollup.contract.ts,
// which reads them before and after a fold); here, what 039 is for and what the fold promises: a
// payment waits for no other payment's commit on a rollup row, folds running at once on several
// connections count each pending row once, and `serve`'s background folds and beats.
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { foldRollup, startRollupFold } from "../../src/store/postgres/rollup-fold.ts";
import { account, create, merchant, payUnit, T0 } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";
import { onNewDatabase } from "./new-database.ts";

/** The rows of a rollup table against a count over the orders: (pid, account, pay type) that differ. */
async function differences(sql: SQL, table: string): Promise<number> {
  const [row] = await sql.unsafe(`SELECT count(*)::int AS n FROM (
    SELECT pid, COALESCE(account_id, 0) AS account_id, pay_type, count(*) AS c,
           count(*) FILTER (WHERE status = 2) AS n, COALESCE(sum(trade_amount) FILTER (WHERE status = 2), 0) AS a FROM orders GROUP BY 1, 2, 3) o
    FULL JOIN (SELECT pid, account_id, pay_type, sum(created) AS c, sum(paid_count) AS n, sum(paid_amount) AS a FROM ${table} GROUP BY 1, 2, 3
               HAVING sum(created) <> 0 OR sum(paid_count) <> 0) r
    USING (pid, account_id, pay_type) WHERE (o.c, o.n, o.a) IS DISTINCT FROM (r.c, r.n, r.a)`);
  return Number(row.n);
}

const pendingRows = async (sql: SQL) => Number((await sql`SELECT count(*) AS n FROM order_rollup_pending`)[0].n);

withPostgres(() => {
  const cluster = clusterPerFile();

  test("a payment does not wait for another payment's commit on the same account's rollup rows", async () => {
    await onNewDatabase(cluster, "nowait", { max: 2 }, async (store, sql) => {
      await merchant(store);
      await account(store);
      const first = await create(store, { amount: 1000 });
      const second = await create(store, { amount: 2000 });
      expect(second.accountId).toBe(first.accountId);
      // The first payment's transaction stays open, as a slow commit would, holding what it wrote.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let paidFirst!: () => void;
      const firstPaid = new Promise<void>((r) => (paidFirst = r));
      const open = sql.begin(async (tx) => {
        await tx`UPDATE orders SET status = 2, paid_at = ${T0 + 10} WHERE trade_no = ${first.tradeNo}`;
        paidFirst();
        await held;
      });
      await firstPaid;
      // Before 039 the second payment waited here for the first one's commit (its trigger's upsert
      // of the same hour and day rows), and this race was lost.
      const raced = await Promise.race([
        store.payOrder(payUnit(second.tradeNo, T0 + 10)).then((r) => r.kind),
        Bun.sleep(3_000).then(() => "waited"),
      ]);
      release();
      await open;
      expect(raced).toBe("paid");
      expect(await pendingRows(sql)).toBe(4); // two creates, two payments
      expect(await foldRollup(sql)).toBe(4);
      for (const t of ["order_rollup_hour", "order_rollup_day"]) expect(await differences(sql, t)).toBe(0);
    });
  }, 60_000);

  test("folds on several connections at once, while orders are paid: each pending row counted once", async () => {
    await onNewDatabase(cluster, "folds", { max: 4 }, async (store, sql) => {
      await merchant(store);
      for (let i = 0; i < 4; i++) await account(store);
      const orders = [];
      // Over four hours of one day (T0 is 08:00 UTC): created and paid in the same half hour.
      const at = (i: number) => T0 + (i % 7) * 1800;
      for (let i = 0; i < 120; i++) orders.push(await create(store, { amount: 1000 + (i % 30) * 10 }, { now: at(i) }));
      const folders = await Promise.all([0, 1, 2].map(async () => {
        const c = new SQL(cluster().url("folds"), { max: 1 });
        await c`SELECT 1`;
        return c;
      }));
      let paying = true;
      const outcomes: number[] = [];
      const folding = folders.map(async (c) => {
        while (paying) outcomes.push(await foldRollup(c));
      });
      const paid = await Promise.all(orders.map((o, i) => store.payOrder(payUnit(o.tradeNo, at(i) + 10))));
      paying = false;
      await Promise.all(folding);
      await Promise.all(folders.map((c) => c.close()));
      expect(paid.every((p) => p.kind === "paid")).toBe(true);
      expect(outcomes.some((n) => n > 0)).toBe(true);
      await foldRollup(sql);
      expect(await pendingRows(sql)).toBe(0);
      for (const t of ["order_rollup_hour", "order_rollup_day"]) expect(await differences(sql, t)).toBe(0);
      // The day's rows add the four hours' rows.
      const [h] = await sql`SELECT count(DISTINCT bucket) AS n FROM order_rollup_hour WHERE paid_count > 0`;
      expect(Number(h.n)).toBe(4);
    });
  }, 60_000);

  test("serve's background folds once a second and beats; it stops when asked", async () => {
    await onNewDatabase(cluster, "background", { max: 2 }, async (store, sql) => {
      await merchant(store);
      await account(store);
      const beats: number[] = [];
      const errors: string[] = [];
      const bg = store.startBackground({ onBeat: (name) => name === "rollup" && beats.push(Date.now()), onError: (m) => errors.push(m) });
      const o = await create(store, { amount: 1000 });
      await store.payOrder(payUnit(o.tradeNo));
      const until = Date.now() + 10_000;
      while ((await pendingRows(sql)) > 0 && Date.now() < until) await Bun.sleep(50);
      expect(await pendingRows(sql)).toBe(0);
      const [day] = await sql`SELECT created, paid_count, paid_amount FROM order_rollup_day`;
      expect([Number(day.created), Number(day.paid_count), Number(day.paid_amount)]).toEqual([1, 1, 1000]);
      await bg.stop();
      const stoppedWith = beats.length;
      expect(stoppedWith).toBeGreaterThanOrEqual(2);
      await create(store, { amount: 2000 });
      await Bun.sleep(1_500);
      expect(beats.length).toBe(stoppedWith);
      expect(await pendingRows(sql)).toBe(1);
      expect(errors).toEqual([]);
    });
  }, 60_000);
});

test("a fold that fails is reported and the loop goes on", async () => {
  const errors: string[] = [];
  let calls = 0;
  const failing = async () => {
    calls++;
    throw new Error("connection refused");
  };
  const bg = startRollupFold(failing as never, { onBeat: () => errors.push("beat"), onError: (m) => errors.push(m) }, 20);
  await Bun.sleep(150);
  await bg.stop();
  expect(calls).toBeGreaterThanOrEqual(3);
  expect(errors[0]).toBe("the income rollup's fold failed: connection refused");
  expect(errors).not.toContain("beat");
});
