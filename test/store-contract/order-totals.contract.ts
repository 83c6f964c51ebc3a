// The orders list's newer filters (payer address, amount range, paid-time range), the count and sums
// of a whole filter, and the notification state of a page of orders.
import { expect, test } from "bun:test";
import { account, create, type Ctx, merchant, payUnit, T0 } from "./harness.ts";

export function orderTotalsContract(ctx: Ctx): void {
  async function orders() {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await account(s);
    const a = await create(s, { amount: 1000, clientip: "203.0.113.7" }, { now: T0 });
    const b = await create(s, { amount: 2500, clientip: "203.0.113.7" }, { now: T0 + 1 });
    const c = await create(s, { pid: 1002, amount: 9900, clientip: "198.51.100.1", notifyUrl: "" }, { now: T0 + 2 });
    const d = await create(s, { amount: 500 }, { now: T0 + 3 });
    await s.payOrder(payUnit(a.tradeNo, T0 + 100));
    await s.payOrder(payUnit(c.tradeNo, T0 + 200));
    return { a: a.tradeNo, b: b.tradeNo, c: c.tradeNo, d: d.tradeNo, paidA: (await s.getOrder(a.tradeNo))!.tradeAmount!, paidC: (await s.getOrder(c.tradeNo))!.tradeAmount! };
  }
  const now = T0 + 300;
  const nos = async (q: Record<string, unknown>) => (await ctx.store.browse.searchOrders({ ...q, limit: 10, now })).map((o) => o.tradeNo);

  test("filters: payer address, amount range (both ends included), paid-time range (paid orders only)", async () => {
    const o = await orders();
    expect(await nos({ clientIp: "203.0.113.7" })).toEqual([o.b, o.a]);
    expect(await nos({ clientIp: "203.0.113.8" })).toEqual([]);
    expect(await nos({ amountMin: 1000, amountMax: 2500 })).toEqual([o.b, o.a]);
    expect(await nos({ amountMin: 2501 })).toEqual([o.c]);
    expect(await nos({ amountMax: 999 })).toEqual([o.d]);
    expect(await nos({ paidFrom: T0 + 100, paidTo: T0 + 200 })).toEqual([o.a]);
    expect(await nos({ paidFrom: T0 + 100 })).toEqual([o.c, o.a]);
    expect(await nos({ paidTo: T0 + 201, pid: 1002 })).toEqual([o.c]);
  });

  test("orderTotals: count and sums of the whole filter; the paid sum is the money received", async () => {
    const o = await orders();
    const s = ctx.store;
    expect(await s.browse.orderTotals({ now })).toEqual({ count: 4, amount: 13_900, paidCount: 2, paidAmount: o.paidA + o.paidC });
    expect(await s.browse.orderTotals({ pid: 1001, now })).toEqual({ count: 3, amount: 4000, paidCount: 1, paidAmount: o.paidA });
    expect(await s.browse.orderTotals({ clientIp: "203.0.113.7", status: 1, now })).toEqual({ count: 1, amount: 2500, paidCount: 0, paidAmount: 0 });
    expect(await s.browse.orderTotals({ paidFrom: T0, paidTo: T0 + 150, now })).toEqual({ count: 1, amount: 1000, paidCount: 1, paidAmount: o.paidA });
    expect(await s.browse.orderTotals({ search: { tradeNo: "nothing" }, now })).toEqual({ count: 0, amount: 0, paidCount: 0, paidAmount: 0 });
  });

  test("notificationStates: the orders that have a notification, with status and attempts", async () => {
    const o = await orders();
    const s = ctx.store;
    const n = (await s.getNotification(o.a))!;
    await s.recordNotificationAttempt(n.id, { attempt: { attemptedAt: 1, durationMs: 1, httpStatus: 500, body: "", error: "", acknowledged: false }, status: "pending", nextAttemptAt: 2 });
    const got = await s.browse.notificationStates([o.a, o.b, o.c, o.d, "missing"]);
    // b and d are unpaid (no notification yet); c was paid without a notify_url.
    expect(got).toEqual([{ tradeNo: o.a, status: "pending", attempts: 1 }]);
    expect(await s.browse.notificationStates([])).toEqual([]);
  });
}
