// Orders: the create unit (idempotent retry, conflicting amount, the retry of a failed create), the
// cashier's pay-type pick, reads, close and the expiry sweep.
import { expect, test } from "bun:test";
import { account, create, createUnit, type Ctx, merchant, newOrder, rule, T0, tradeNos } from "./harness.ts";

export function ordersContract(ctx: Ctx): void {
  test("create takes an account and a payable amount; the order reads back the same", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s);
    const r = await s.createOrder(createUnit(newOrder({ outTradeNo: "A1", amount: 1234 })));
    expect(r.kind).toBe("created");
    if (r.kind !== "created") return;
    expect(r.order).toMatchObject({ pid: 1001, outTradeNo: "A1", status: 1, accountId: a.id, tradeAmount: 1234, amount: 1234, expireTime: T0 + 900, createdAt: T0 });
    expect(r.account?.id).toBe(a.id);
    expect(r.order.tradeNo).toMatch(/^\d{20}$/);
    expect(await s.getOrder(r.order.tradeNo)).toEqual(r.order);
    expect(await s.getOrderByOutTradeNo(1001, "A1")).toEqual(r.order);
    expect(await s.getOrderByOutTradeNo(1002, "A1")).toBeNull();
    expect(await s.getOrder("00000000000000000000")).toBeNull();
  });

  test("the same out_trade_no and amount again returns the first order and takes no new slot", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const o = newOrder({ outTradeNo: "IDEM" });
    const first = await s.createOrder(createUnit(o));
    const again = await s.createOrder(createUnit(o));
    expect(again.kind).toBe("existing");
    if (first.kind !== "created" || again.kind !== "existing") return;
    expect(again.order.tradeNo).toBe(first.order.tradeNo);
    expect(again.account?.id).toBe(first.order.accountId!);
    expect((await s.listOrders({})).length).toBe(1);
    expect((await create(s)).tradeAmount).toBe(999); // 1000 is still held by the first order only
  });

  test("the same out_trade_no with another amount is refused with the store's reason", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    await create(s, { outTradeNo: "X", amount: 1000 });
    const r = await s.createOrder(createUnit(newOrder({ outTradeNo: "X", amount: 2000 })));
    expect(r).toEqual({ kind: "error", reason: "out_trade_no X already exists with a different amount" });
  });

  test("a create that found no account fails (status 5); its retry allocates on the same row", async () => {
    const s = ctx.store;
    await merchant(s);
    const failed = await create(s, { outTradeNo: "F" });
    expect(failed).toMatchObject({ status: 5, accountId: null, tradeAmount: null, failReason: "no enabled account for pay type alipay" });
    const a = await account(s);
    const r = await s.createOrder(createUnit(newOrder({ outTradeNo: "F" }), { now: T0 + 5 }));
    expect(r.kind).toBe("created");
    if (r.kind !== "created") return;
    expect(r.order).toMatchObject({ tradeNo: failed.tradeNo, status: 1, accountId: a.id, tradeAmount: 1000, failReason: "", createdAt: T0 + 5 });
    expect((await s.listOrders({})).length).toBe(1);
  });

  // PostgreSQL draws the 12 digits at random (core/ids.ts); SQLite makes them from the order's
  // place in its sequence (src/store/sqlite/order-keys.ts) and never draws.
  if (ctx.adapter !== "sqlite") {
    test("a trade_no already taken is drawn again", async () => {
      const s = ctx.store;
      await merchant(s);
      await account(s);
      const first = await create(s, {}, { newTradeNo: () => "20260101000000000001" });
      const draws = ["20260101000000000001", "20260101000000000002"];
      const second = await create(s, {}, { newTradeNo: () => draws.shift()! });
      expect(first.tradeNo).toBe("20260101000000000001");
      expect(second.tradeNo).toBe("20260101000000000002");
    });
  }

  test("order numbers: 20 digits, each its own, each found by itself (SQLite: its day in China time first)", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const made = [];
    for (let i = 0; i < 30; i++) made.push(await create(s, { amount: 1000 + i, outTradeNo: `N${i}` }, { now: T0 + i * 3600 }));
    for (const o of made) {
      expect(o.tradeNo).toMatch(/^[0-9]{20}$/);
      const d = new Date((o.createdAt + 8 * 3600) * 1000);
      if (ctx.adapter === "sqlite") expect(o.tradeNo.slice(0, 8)).toBe(`${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}${String(d.getUTCDate()).padStart(2, "0")}`);
      expect((await s.getOrder(o.tradeNo))?.outTradeNo).toBe(o.outTradeNo);
    }
    expect(new Set(made.map((o) => o.tradeNo)).size).toBe(30);
    expect(new Set(made.map((o) => o.tradeNo.slice(8))).size).toBe(30);
    expect(await s.getOrder(`${made[0]!.tradeNo.slice(0, 8)}${"0".repeat(12)}`)).toBeNull();
  });

  test("an order without a pay type waits for the payer's pick, which allocates once", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s);
    const o = await create(s, { payType: "" });
    expect(o).toMatchObject({ status: 1, payType: "", accountId: null, tradeAmount: null });
    const pick = rule({ ...newOrder(), payType: "alipay", amount: o.amount });
    const r = await s.chooseOrderPayType(o.tradeNo, "alipay", T0 + 1, pick);
    expect(r.ok && r.order).toMatchObject({ payType: "alipay", accountId: a.id, tradeAmount: 1000 });
    expect(await s.chooseOrderPayType(o.tradeNo, "alipay", T0 + 2, pick)).toEqual({ ok: false, reason: "order already has a pay type" });
    expect(await s.chooseOrderPayType("nope", "alipay", T0, pick)).toEqual({ ok: false, reason: "order not found" });
    const late = await create(s, { payType: "" });
    expect(await s.chooseOrderPayType(late.tradeNo, "alipay", late.expireTime, pick)).toEqual({ ok: false, reason: "order is no longer payable" });
    const none = rule({ ...newOrder(), payType: "wxpay" });
    const other = await create(s, { payType: "" });
    expect(await s.chooseOrderPayType(other.tradeNo, "wxpay", T0, none)).toEqual({ ok: false, reason: "no enabled account for pay type wxpay" });
    expect(await s.getOrder(other.tradeNo)).toMatchObject({ payType: "", accountId: null });
  });

  test("listOrders filters by merchant and status, newest first, with limit and offset", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await account(s);
    const a = await create(s, { pid: 1001 }, { now: T0 });
    const b = await create(s, { pid: 1002 }, { now: T0 + 1 });
    const c = await create(s, { pid: 1001 }, { now: T0 + 2 });
    await s.closeOrder(a.tradeNo, T0 + 3);
    expect((await s.listOrders({})).map((o) => o.tradeNo)).toEqual([c.tradeNo, b.tradeNo, a.tradeNo]);
    expect((await s.listOrders({ pid: 1001 })).map((o) => o.tradeNo)).toEqual([c.tradeNo, a.tradeNo]);
    expect((await s.listOrders({ status: 3 })).map((o) => o.tradeNo)).toEqual([a.tradeNo]);
    expect((await s.listOrders({ limit: 1, offset: 1 })).map((o) => o.tradeNo)).toEqual([b.tradeNo]);
  });

  test("close: only a pending order before its expiry; once", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const o = await create(s);
    expect(await s.closeOrder(o.tradeNo, T0 + 1)).toBe(true);
    expect(await s.getOrder(o.tradeNo)).toMatchObject({ status: 3, closedAt: T0 + 1 });
    expect(await s.closeOrder(o.tradeNo, T0 + 2)).toBe(false);
    const late = await create(s);
    expect(await s.closeOrder(late.tradeNo, late.expireTime)).toBe(false);
    expect(await s.closeOrder("missing", T0)).toBe(false);
  });

  test("the expiry sweep writes status 4 once, and tells how many of each family and pay type", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    await account(s, { payType: "wxpay" });
    await create(s, { family: "native" });
    await create(s, { family: "native" });
    await create(s, { family: "epay-v1", payType: "wxpay" });
    const keep = await create(s, {}, { now: T0 + 100 });
    const tally: string[] = [];
    expect(await s.expireOrders(T0 + 900, (f, p, n) => tally.push(`${f}/${p}/${n}`))).toBe(3);
    expect(tally.sort()).toEqual(["epay-v1/wxpay/1", "native/alipay/2"]);
    expect(await s.expireOrders(T0 + 900)).toBe(0);
    expect((await s.getOrder(keep.tradeNo))!.status).toBe(1);
    expect((await s.listOrders({ status: 4 })).length).toBe(3);
  });

  test("merchantOrderCounts counts all, today and yesterday", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const today = T0 - (T0 % 86400);
    await create(s, {}, { now: today - 100 });
    await create(s, {}, { now: today + 5 });
    await create(s, {}, { now: today + 6, newTradeNo: tradeNos("2027") });
    expect(await s.merchantOrderCounts(1001, today)).toEqual({ total: 3, today: 2, yesterday: 1 });
    expect(await s.merchantOrderCounts(1002, today)).toEqual({ total: 0, today: 0, yesterday: 0 });
  });
}
