// The income rollup (migration 025) against the orders themselves: a random history of creates,
// pay-type picks, payments on time and late, closes, payments confirmed by hand, assignments,
// retries of failed creates and expiry sweeps, over three days that hold a daylight-saving change
// in New York; then every day and hour of three time zones (whole, three-quarter hour and DST
// offsets), and the per-account rows of every day, must equal a count over the orders as they are,
// before and after the store's background work (PostgreSQL's fold of the pending rows, 039).
import { expect, test } from "bun:test";
import { assignProblem } from "../../src/core/assign-report.ts";
import { because } from "../../src/core/reasons.ts";
import { buckets } from "../../src/core/stats/calendar.ts";
import type { AccountIncome, IncomeCounts } from "../../src/core/stats/store.ts";
import type { Order } from "../../src/core/types.ts";
import { account, type Ctx, claim, create, createUnit, merchant, newOrder, payUnit, rule, settleUnit } from "./harness.ts";

/** 2027-03-13 00:00 UTC: New York moves its clocks forward on the 14th. */
const START = Date.UTC(2027, 2, 13) / 1000;
const ZONES = ["Asia/Shanghai", "Asia/Kathmandu", "America/New_York"];

/** A small linear congruential generator: the same history on every run and on both stores. */
function random(seed: number) {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return { next, pick: <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)]! };
}

function countRanges(orders: Order[], edges: number[], pid?: number): IncomeCounts[] {
  const out: IncomeCounts[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const [from, to] = [edges[i]!, edges[i + 1]!];
    const mine = orders.filter((o) => pid === undefined || o.pid === pid);
    const paid = mine.filter((o) => o.status === 2 && o.paidAt! >= from && o.paidAt! < to);
    out.push({ paidCount: paid.length, paidAmount: paid.reduce((a, o) => a + o.tradeAmount!, 0), created: mine.filter((o) => o.createdAt >= from && o.createdAt < to).length });
  }
  return out;
}

function countAccounts(orders: Order[], from: number, to: number): AccountIncome[] {
  const rows = new Map<string, AccountIncome>();
  const row = (o: Order) => {
    const key = `${o.accountId}/${o.pid}/${o.payType}`;
    if (!rows.has(key)) rows.set(key, { accountId: o.accountId, pid: o.pid, payType: o.payType, paidCount: 0, paidAmount: 0, created: 0 });
    return rows.get(key)!;
  };
  for (const o of orders) {
    if (o.createdAt >= from && o.createdAt < to) row(o).created++;
    if (o.status === 2 && o.paidAt! >= from && o.paidAt! < to) {
      row(o).paidCount++;
      row(o).paidAmount += o.tradeAmount!;
    }
  }
  return sorted([...rows.values()]);
}

const sorted = (rows: AccountIncome[]) =>
  [...rows].sort((a, b) => a.pid - b.pid || (a.accountId ?? 0) - (b.accountId ?? 0) || a.payType.localeCompare(b.payType));

export function rollupContract(ctx: Ctx): void {
  test("rollup: a random history of creates, picks, pays, late and manual pays, closes, assignments and retries counts as the orders do", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await account(s, { pid: 0 });
    await account(s, { pid: 0 });
    await account(s, { pid: 1001, payType: "wxpay" });
    const r = random(29);
    const made: { tradeNo: string; outTradeNo: string; pid: number; amount: number }[] = [];
    const tally: Record<string, number> = {};
    const did = (what: string) => (tally[what] = (tally[what] ?? 0) + 1);
    // The store's background work (PostgreSQL: the fold of the rollup's pending rows, migration 039)
    // run once midway and once at the end: the figures are the same before and after it.
    const errors: string[] = [];
    const background = async () => {
      const bg = s.startBackground?.({ onBeat: () => {}, onError: (m) => errors.push(m) });
      await bg?.stop();
    };
    let t = START + 17;
    for (let i = 0; i < 400; i++) {
      if (i === 200) await background();
      t += Math.floor(r.next() * r.next() * 2000);
      const op = r.next();
      // Mostly one of the newest orders (still payable), now and then any.
      const some = made.length ? (r.next() < 0.8 ? r.pick(made.slice(-4)) : r.pick(made)) : null;
      const order = some ? await s.getOrder(some.tradeNo) : null;
      if (op < 0.35 || !some || !order) {
        const o = newOrder({ pid: r.pick([1001, 1002]), payType: r.pick(["alipay", "alipay", "wxpay", "qqpay", ""]), amount: 100 + Math.floor(r.next() * 3000) });
        const c = await s.createOrder(createUnit(o, { now: t, ttl: 900 }));
        if (c.kind === "created") made.push({ tradeNo: c.order.tradeNo, outTradeNo: o.outTradeNo, pid: o.pid, amount: o.amount });
        did(c.kind === "created" && c.order.status === 5 ? "failed create" : "create");
      } else if (order.payType === "" && order.status === 1 && t < order.expireTime && op < 0.6) {
        const o = newOrder({ pid: order.pid, payType: r.pick(["alipay", "wxpay"]), amount: order.amount });
        if ((await s.chooseOrderPayType(order.tradeNo, o.payType, t, rule(o, t))).ok) did("pick");
      } else if (op < 0.65) {
        const paid = await s.payOrder(payUnit(order.tradeNo, t)); // timed out within the match window: a late payment
        if (paid.kind === "paid") did(t > order.expireTime ? "late pay" : "pay");
      } else if (op < 0.72) {
        if ((await s.payOrder({ ...payUnit(order.tradeNo, t), acceptTimedOutSince: 0 })).kind === "paid") did("manual pay");
      } else if (op < 0.8 && order.tradeAmount !== null) {
        const report = await s.settleReport(settleUnit(claim({ pid: order.pid, amount: 1, payType: order.payType }), { amount: order.tradeAmount, createdAt: t }, t));
        const a = await s.assignReport({
          reportId: report.reportId!, tradeNo: order.tradeNo, check: (rep, o) => assignProblem(rep, o, 600),
          pay: () => ({ ...payUnit(order.tradeNo, t), acceptTimedOutSince: 0 }), note: () => because("assigned", { no: order.tradeNo, by: "alice", why: "assigned" }),
        });
        if (a.kind === "assigned") did("assign");
      } else if (op < 0.87) {
        if (await s.closeOrder(order.tradeNo, t)) did("close");
      } else if (op < 0.93 && order.status === 5) {
        // The retry of a failed create: the same row, created anew now, on whatever account takes it.
        const o = newOrder({ pid: some.pid, outTradeNo: some.outTradeNo, payType: r.pick(["alipay", "wxpay"]), amount: some.amount });
        if ((await s.createOrder(createUnit(o, { now: t, ttl: 900 }))).kind === "created") did("retry");
      } else {
        await s.expireOrders(t);
        did("sweep");
      }
    }
    // Every kind of write happened (the history is fixed by the seed).
    for (const what of ["create", "failed create", "pick", "pay", "late pay", "manual pay", "assign", "close", "retry", "sweep"]) expect(tally[what] ?? 0).toBeGreaterThan(0);
    const orders = await s.listOrders({ limit: 100_000 });
    expect(orders.length).toBe(made.length);
    const now = t;
    await expectCounts(orders, now);
    await background();
    await expectCounts(orders, now);
    expect(errors).toEqual([]);
  });

  async function expectCounts(orders: Order[], now: number) {
    const s = ctx.store;
    for (const zone of ZONES) {
      for (const unit of ["day", "hour"] as const) {
        const bs = buckets(START - 86400, now + 1, unit, zone);
        const edges = [...bs.map((b) => b.from), bs.at(-1)!.to];
        // The first range starts mid-day (START - 86400 is no local midnight in every zone): cut it off.
        const whole = edges.slice(1);
        expect(await s.stats.incomeByRange({ edges: whole })).toEqual(countRanges(orders, whole));
        expect(await s.stats.incomeByRange({ edges: whole, pid: 1002 })).toEqual(countRanges(orders, whole, 1002));
      }
      const days = buckets(START, now + 1, "day", zone).filter((b) => b.from % 900 === 0);
      for (const d of [...days, { from: days[0]!.from, to: now + 1 }]) {
        expect(sorted(await s.stats.incomeByAccount({ from: d.from, to: d.to }))).toEqual(countAccounts(orders, d.from, d.to));
      }
    }
  }
}
