// Store.dev (units only `xpay dev` calls): a pending order ends now as if its lifetime had run out;
// any other order is left as it is.
import { expect, test } from "bun:test";
import { account, create, type Ctx, merchant, payUnit, T0 } from "./harness.ts";

export function devContract(ctx: Ctx): void {
  test("dev: expireOrderNow times out a pending order from now; a paid, closed or unknown one is left alone", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const o = await create(s, {}, { now: T0 });
    const r = await s.dev.expireOrderNow(o.tradeNo, T0 + 60);
    expect(r.kind).toBe("expired");
    if (r.kind !== "expired") return;
    expect(r.order).toMatchObject({ tradeNo: o.tradeNo, status: 4, expireTime: T0 + 60 });
    expect(await s.getOrder(o.tradeNo)).toEqual(r.order);
    // Again: it is no longer pending.
    expect(await s.dev.expireOrderNow(o.tradeNo, T0 + 70)).toEqual({ kind: "not_pending", order: r.order });

    const paid = await create(s, { amount: 2000 }, { now: T0 });
    expect((await s.payOrder(payUnit(paid.tradeNo, T0 + 5))).kind).toBe("paid");
    const after = await s.dev.expireOrderNow(paid.tradeNo, T0 + 60);
    expect(after).toMatchObject({ kind: "not_pending", order: { status: 2, expireTime: paid.expireTime, paidAt: T0 + 5 } });
    const closed = await create(s, { amount: 3000 }, { now: T0 });
    await s.closeOrder(closed.tradeNo, T0 + 1);
    expect(await s.dev.expireOrderNow(closed.tradeNo, T0 + 60)).toMatchObject({ kind: "not_pending", order: { status: 3, expireTime: closed.expireTime } });
    expect(await s.dev.expireOrderNow("00000000000000000000", T0)).toEqual({ kind: "not_found" });
  });

  test("dev: a pending order already past its expiry keeps the earlier time (the slot is not held longer)", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const o = await create(s, {}, { now: T0, ttl: 100 });
    const r = await s.dev.expireOrderNow(o.tradeNo, T0 + 500);
    expect(r).toMatchObject({ kind: "expired", order: { status: 4, expireTime: T0 + 100 } });
  });
}
