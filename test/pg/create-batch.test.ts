// Creates in batches on PostgreSQL (migration 028, src/store/postgres/create-batch.ts): under
// contention on two stores of one database (two instances), no slot is held twice, one order
// exists per (pid, out_trade_no) and both instances answer it, every answered order is the stored
// one, the folded rollup counts every create, and nothing deadlocks; a unit that fails is answered
// alone and does not fail the units of its batch.
import { expect, test } from "bun:test";
import { SQL } from "bun";
import type { CreateOrderResult } from "../../src/core/store.ts";
import { batchStats } from "../../src/store/postgres/create-batch.ts";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { foldRollup } from "../../src/store/postgres/rollup-fold.ts";
import { account, createUnit, merchant, newOrder, T0 } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";

const HELD_TWICE = `SELECT count(*)::int AS n FROM (SELECT COALESCE(NULLIF(a.report_group, 0), a.id) g, o.trade_amount FROM orders o
  JOIN channel_accounts a ON a.id = o.account_id WHERE o.status = 1 GROUP BY 1, 2 HAVING count(*) > 1) t`;

withPostgres(() => {
  const cluster = clusterPerFile();

  async function two(name: string) {
    const url = await cluster().createDatabase(name);
    const a = PostgresStore.open(url, { max: 4 });
    const b = PostgresStore.open(url, { max: 4 });
    const sql = new SQL(url, { max: 1 });
    await merchant(a);
    return { a, b, sql, end: async () => (await a.end(), await b.end(), await sql.close()) };
  }

  test("two stores racing: no slot held twice, one order per out_trade_no answered alike, rollups whole, no deadlock", async () => {
    const { a, b, sql, end } = await two("race");
    // Few slots: 3 alipay accounts (two of them one report group) and 2 wxpay ones, 5 amounts each.
    const ids: number[] = [];
    for (const payType of ["alipay", "alipay", "alipay", "wxpay", "wxpay"]) ids.push((await account(a, { payType })).id);
    await sql`UPDATE channel_accounts SET report_group = ${ids[0]!} WHERE id IN (${ids[0]!}, ${ids[1]!})`;
    const before = { ...batchStats };
    const answers: { otn: string; amount: number; r: CreateOrderResult }[] = [];
    const rounds = 6;
    for (let round = 0; round < rounds; round++) {
      // Each out_trade_no sent to both stores at once, in opposite orders, with pay types mixed and none.
      const units = Array.from({ length: 40 }, (_, k) => {
        const payType = ["alipay", "wxpay", ""][k % 3]!;
        return newOrder({ outTradeNo: `R${round}-${k}`, payType, amount: 1000 + (k % 4) });
      });
      const sends = [...units.map((o) => ({ s: a, o })), ...units.toReversed().map((o) => ({ s: b, o }))];
      const rs = await Promise.all(sends.map(({ s, o }) => s.createOrder(createUnit(o, { policy: { maxOffset: 4 } }))));
      rs.forEach((r, i) => answers.push({ otn: sends[i]!.o.outTradeNo, amount: sends[i]!.o.amount, r }));
    }
    // batches happened, and some of them held more than one unit
    expect(batchStats.units - before.units).toBeGreaterThan(batchStats.batches - before.batches);


    expect(((await sql.unsafe(HELD_TWICE)) as { n: number }[])[0]!.n).toBe(0);
    const rows = (await sql`SELECT trade_no, out_trade_no, status, account_id, trade_amount FROM orders`) as { trade_no: string; out_trade_no: string; status: number; account_id: string | null; trade_amount: string | null }[];
    expect(rows.length).toBe(rounds * 40);
    const byOtn = new Map(rows.map((r) => [r.out_trade_no, r]));
    expect(byOtn.size).toBe(rows.length);
    let pending = 0;
    for (const { otn, r } of answers) {
      expect(r.kind === "created" || r.kind === "existing").toBe(true);
      if (r.kind === "error") continue;
      const row = byOtn.get(otn)!;
      // both instances answer the stored order
      expect(r.order.tradeNo).toBe(row.trade_no);
      expect(Number(r.order.status)).toBe(row.status);
      expect(r.order.accountId).toBe(row.account_id === null ? null : Number(row.account_id));
      expect(r.order.tradeAmount).toBe(row.trade_amount === null ? null : Number(row.trade_amount));
      if (r.kind === "created" && r.order.status === 1) pending++;
    }
    // each pending order was created once (the other instance found it); a failed one may be created
    // again on its row by the other instance (the core retries failed rows); slots ran out: some failed
    const created = new Map<string, number>();
    for (const x of answers) if (x.r.kind === "created") created.set(x.otn, (created.get(x.otn) ?? 0) + 1);
    for (const r of rows) expect(created.get(r.out_trade_no)! === 1 || (r.status === 5 && created.get(r.out_trade_no)! === 2)).toBe(true);
    expect(pending).toBeGreaterThan(0);
    expect(rows.some((r) => r.status === 5)).toBe(true);
    // the folded rollup counts every order, per hour and per day, by account and pay type: the
    // batches' counts wait as pending rows (migration 039) until a fold, and none is left after it
    expect(await foldRollup(sql)).toBeGreaterThan(0);
    expect(Number((await sql`SELECT count(*) AS n FROM order_rollup_pending`)[0].n)).toBe(0);
    for (const t of ["order_rollup_hour", "order_rollup_day"]) {
      const diff = await sql.unsafe(`SELECT count(*)::int AS n FROM (
        SELECT pid, COALESCE(account_id, 0) AS account_id, pay_type, count(*) AS c FROM orders GROUP BY 1, 2, 3) o
        FULL JOIN (SELECT pid, account_id, pay_type, sum(created) AS c FROM ${t} GROUP BY 1, 2, 3 HAVING sum(created) <> 0) r
        USING (pid, account_id, pay_type) WHERE o.c IS DISTINCT FROM r.c`);
      expect((diff as { n: number }[])[0]!.n).toBe(0);
    }
    await end();
  }, 60_000);

  test("a unit that fails is answered alone: the other units of its batch are created", async () => {
    const { a, sql, end } = await two("alone");
    await account(a);
    await a.createOrder(createUnit(newOrder({ outTradeNo: "TAKEN", amount: 2000 }), { newTradeNo: () => "T-TAKEN" }));
    const before = { ...batchStats };
    // One turn of the event loop: one batch. The third draws only a trade_no that exists (it can
    // never insert); the fifth repeats an out_trade_no with another amount (the core refuses it);
    // the sixth finds no free amount (a failed order, status 5, as today).
    await sql`INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, account_id, trade_amount, created_at, expire_time)
      SELECT 'H' || x, 1001, 'H' || x, 'native', 'alipay', 'x', 5000, 1, id, 5000 - x, ${T0}, ${T0 + 900} FROM channel_accounts, generate_series(0, 2) x`;
    const units = [
      createUnit(newOrder({ amount: 1000 })),
      createUnit(newOrder({ amount: 1001 })),
      createUnit(newOrder({ amount: 1002 }), { newTradeNo: () => "T-TAKEN" }),
      createUnit(newOrder({ amount: 1003 })),
      createUnit(newOrder({ outTradeNo: "TAKEN", amount: 3000 })),
      createUnit(newOrder({ amount: 5000 }), { policy: { maxOffset: 2 } }),
      createUnit(newOrder({ amount: 1004, payType: "" })),
    ];
    const rs = await Promise.allSettled(units.map((u) => a.createOrder(u)));
    expect(batchStats.batches - before.batches).toBeGreaterThanOrEqual(1);
    expect(rs[2]!.status).toBe("rejected");
    const ok = rs.map((r) => (r.status === "fulfilled" ? r.value : null));
    for (const i of [0, 1, 3]) expect(ok[i]).toMatchObject({ kind: "created", order: { status: 1, amount: 1000 + i } });
    expect(ok[4]).toEqual({ kind: "error", reason: "out_trade_no TAKEN already exists with a different amount" });
    expect(ok[5]).toMatchObject({ kind: "created", order: { status: 5, failReason: "no free payable amount on any account; try again later" } });
    expect(ok[6]).toMatchObject({ kind: "created", order: { status: 1, payType: "", accountId: null } });
    const stored = (await sql`SELECT count(*)::int AS n FROM orders WHERE out_trade_no IN ${sql(units.map((u) => u.order.outTradeNo))}`) as { n: number }[];
    expect(stored[0]!.n).toBe(6); // all but the third (TAKEN was there before)
    await end();
  }, 60_000);

  test("a unit whose value the batch cannot carry fails alone too", async () => {
    const { a, end } = await two("carry");
    await account(a);
    const rs = await Promise.allSettled([
      a.createOrder(createUnit(newOrder({ amount: 1000 }))),
      a.createOrder(createUnit(newOrder({ amount: 1001, name: "nul\u0000byte" }))),
      a.createOrder(createUnit(newOrder({ amount: 1002 }))),
    ]);
    expect(rs[1]!.status).toBe("rejected");
    for (const i of [0, 2]) expect(rs[i]).toMatchObject({ status: "fulfilled", value: { kind: "created", order: { status: 1 } } });
    await end();
  }, 60_000);
});
