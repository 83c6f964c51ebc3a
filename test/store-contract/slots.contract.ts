// Store.slots: the payable amounts orders hold on an account, by the allocator's own rule. Orders in
// every state, some within the match window and some past it: the view lists exactly the held ones,
// and the next create on the account takes the first amount the view shows free.
import { expect, test } from "bun:test";
import { account, claim, create, type Ctx, merchant, newOrder, payUnit, rule, settleUnit, T0 } from "./harness.ts";

const WINDOW = 600;

export function slotsContract(ctx: Ctx): void {
  test("slots: pending, timed out, closed and paid orders hold their amount within the match window; older ones do not", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s);
    const other = await account(s, { payType: "wxpay" });
    const now = T0 + 10;
    const at = (t: number, ttl = 900) => create(s, {}, { now: t, ttl });
    const longGone = await at(T0 - 3000); // expired 2100 s ago: past the window
    const latePaid = await at(T0 - 2500); // expired long ago, paid by hand now: held by its paid time
    const closedLongAgo = await at(T0 - 2000);
    await s.closeOrder(closedLongAgo.tradeNo, T0 - 2000);
    const closedEarly = await at(T0 - 700); // closed before the window though it would still be pending
    await s.closeOrder(closedEarly.tradeNo, T0 - 650);
    const timedOut = await at(T0 - 1000); // expired 100 s ago: within the window
    const unswept = await at(T0 - 950); // expired 50 s ago, not swept yet: status 1 still, held all the same
    await s.expireOrders(T0 - 90); // writes 4 for timedOut (and longGone)
    expect((await s.payOrder({ ...payUnit(latePaid.tradeNo, T0 + 4), acceptTimedOutSince: 0 })).kind).toBe("paid"); // a manual 补单
    const closed = await at(T0);
    await s.closeOrder(closed.tradeNo, T0 + 1);
    const paid = await at(T0 + 2);
    expect((await s.payOrder(payUnit(paid.tradeNo, T0 + 5))).kind).toBe("paid");
    const pending = await at(T0 + 3);
    await create(s, { payType: "wxpay" }, { now: T0 }); // another account's
    expect(other.id).not.toBe(a.id);

    const held = await s.slots.heldSlots(a.id, now - WINDOW, { limit: 50 });
    const byTradeNo = (o: { tradeNo: string }) => held.find((h) => h.tradeNo === o.tradeNo);
    expect(held.map((h) => h.tradeNo).sort()).toEqual([latePaid, timedOut, unswept, closed, paid, pending].map((o) => o.tradeNo).sort());
    expect(byTradeNo(longGone)).toBeUndefined();
    expect(byTradeNo(closedLongAgo)).toBeUndefined();
    expect(byTradeNo(closedEarly)).toBeUndefined();
    expect(held.map((h) => h.tradeAmount)).toEqual([...held.map((h) => h.tradeAmount)].sort((x, y) => x - y));
    expect(byTradeNo(paid)).toEqual({
      tradeAmount: paid.tradeAmount!, accountId: a.id, tradeNo: paid.tradeNo, outTradeNo: paid.outTradeNo, pid: 1001, amount: 1000, status: 2,
      createdAt: T0 + 2, expireTime: T0 + 902, paidAt: T0 + 5, closedAt: null,
    });
    expect(byTradeNo(closed)).toMatchObject({ status: 3, closedAt: T0 + 1, paidAt: null });
    expect(byTradeNo(timedOut)).toMatchObject({ status: 4 });
    expect(byTradeNo(unswept)).toMatchObject({ status: 1 });

    // The allocator agrees: the next order of the same amount takes the first amount the view shows free.
    const heldAmounts = new Set(held.map((h) => h.tradeAmount));
    let firstFree = 1000;
    while (heldAmounts.has(firstFree)) firstFree--;
    const next = await create(s, {}, { now });
    expect(next.tradeAmount).toBe(firstFree);

    const narrowed = await s.slots.heldSlots(a.id, now - WINDOW, { range: { min: 997, max: 999 }, limit: 2 });
    expect(narrowed.map((h) => h.tradeAmount)).toEqual(held.map((h) => h.tradeAmount).filter((t) => t >= 997 && t <= 999).slice(0, 2));
    expect(narrowed.length).toBe(2);
    expect(await s.slots.heldSlots(a.id + other.id + 1, now - WINDOW, { limit: 50 })).toEqual([]);
    // Once the window has passed for every ended order, only the pending ones still hold.
    expect((await s.slots.heldSlots(a.id, T0 + 900, { limit: 50 })).map((h) => h.tradeNo).sort()).toEqual([pending.tradeNo, next.tradeNo].sort());
  });

  test("slots: amounts that gathered many ended orders are read by the orders that still hold them, by a create and by a report", async () => {
    // A shop that sells at one price: 100 orders paid and 100 timed out, weeks ago, at 10.00 and
    // 9.99, more than the stores walk for a range of 11 amounts (core/allocation.ts WALK_PER_AMOUNT),
    // so each amount is looked up among the orders that still hold it.
    const s = ctx.store;
    await merchant(s);
    const a = await account(s);
    const start = T0 - 200_000;
    for (let i = 0; i < 100; i++) {
      const t = start + i * 700; // the window (600 s) apart: each finds 10.00 and 9.99 free again
      const sold = await create(s, {}, { now: t });
      expect(sold.tradeAmount).toBe(1000);
      expect((await s.payOrder(payUnit(sold.tradeNo, t + 1))).kind).toBe("paid");
      expect((await create(s, {}, { now: t + 350, ttl: 60 })).tradeAmount).toBe(999); // 10.00 is held by the order just paid
    }
    expect(await s.expireOrders(T0 - 1000)).toBeGreaterThanOrEqual(100);

    const p1 = await create(s, {}, { now: T0 });
    const p2 = await create(s, {}, { now: T0 });
    const p3 = await create(s, {}, { now: T0 });
    expect([p1.tradeAmount, p2.tradeAmount, p3.tradeAmount]).toEqual([1000, 999, 998]);
    expect((await s.payOrder(payUnit(p1.tradeNo, T0 + 1))).kind).toBe("paid");
    const next = await create(s, {}, { now: T0 + 2 });
    expect(next.tradeAmount).toBe(997); // 10.00 held by its payment, 9.99 and 9.98 pending
    const held = await s.slots.heldSlots(a.id, T0 + 2 - WINDOW, { limit: 50 });
    expect(held.map((h) => h.tradeNo).sort()).toEqual([p1, p2, p3, next].map((o) => o.tradeNo).sort());

    // A payment of 9.99 is the pending order's, not one of the hundred that timed out at 9.99.
    const settled = await s.settleReport(settleUnit(claim({ amount: 999 }), {}, T0 + 3));
    expect(settled.outcome).toBe("matched");
    expect(settled.tradeNo).toBe(p2.tradeNo);
    // A cashier order whose payer picks the pay type later reads the amounts the same way.
    const open = await create(s, { payType: "" }, { now: T0 + 4 });
    const picked = await s.chooseOrderPayType(open.tradeNo, "alipay", T0 + 4, rule(newOrder(), T0 + 4));
    expect(picked.ok && picked.order.tradeAmount).toBe(996);
    // Past the window of the paid order, 10.00 is free again, however many orders it has held.
    expect((await create(s, {}, { now: T0 + 700 })).tradeAmount).toBe(1000);
  });
}
