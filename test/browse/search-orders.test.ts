// The operator's order search: every filter narrows, statuses read as callers see them, search by
// either number or the payable amount, and keyset pages that neither repeat nor skip a row.
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { OrderQuery } from "../../src/core/browse/store.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { createOrder } from "../report/util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const search = (q: Partial<OrderQuery> = {}) => h.gw.store.browse.searchOrders({ limit: 50, now: h.clock.now(), ...q });
const numbers = async (q: Partial<OrderQuery> = {}) => (await search(q)).map((o) => o.tradeNo);

test("newest first; pages by keyset cover every order once, also when orders share a second", async () => {
  const made: string[] = [];
  for (let i = 0; i < 7; i++) {
    made.push((await createOrder(h, { money: `${10 + i}.00` })).trade_no);
    if (i % 3 === 2) h.clock.advance(1); // several orders in one second
  }
  const all = await numbers();
  expect([...all].sort()).toEqual([...made].sort());
  const seen: string[] = [];
  let page = await search({ limit: 2 });
  while (page.length > 0) {
    seen.push(...page.map((o) => o.tradeNo));
    const last = page.at(-1)!;
    page = await search({ limit: 2, after: { createdAt: last.createdAt, tradeNo: last.tradeNo } });
  }
  expect(seen).toEqual(all);
  const created = (await search()).map((o) => o.createdAt);
  expect(created).toEqual([...created].sort((a, b) => b - a));
});

test("status as callers see it: a pending order past expire_time is timed out, not pending", async () => {
  const a = await createOrder(h, { money: "10.00" });
  h.clock.advance(901);
  const b = await createOrder(h, { money: "11.00" });
  await h.gw.store.closeOrder(b.trade_no, h.clock.now());
  const c = await createOrder(h, { money: "12.00" });
  expect(await numbers({ status: 1 })).toEqual([c.trade_no]);
  expect(await numbers({ status: 4 })).toEqual([a.trade_no]);
  expect(await numbers({ status: 3 })).toEqual([b.trade_no]);
  expect(await numbers({ status: 2 })).toEqual([]);
});

test("merchant, pay type, account and date range each narrow", async () => {
  await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "b".repeat(32), now: h.clock.now() });
  const wx = await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx", name: "WeChat", qrcode: "wxp://x", now: h.clock.now() });
  const early = await createOrder(h, { money: "10.00" });
  h.clock.advance(3600);
  const wxOrder = await createOrder(h, { money: "10.00", pay_type: "wxpay" });
  expect(await numbers({ payType: "wxpay" })).toEqual([wxOrder.trade_no]);
  expect(await numbers({ accountId: wx.id })).toEqual([wxOrder.trade_no]);
  expect(await numbers({ pid: 1002 })).toEqual([]);
  expect(await numbers({ pid: 1001 })).toHaveLength(2);
  const t = h.clock.now();
  expect(await numbers({ from: t - 60 })).toEqual([wxOrder.trade_no]);
  expect(await numbers({ to: t - 60 })).toEqual([early.trade_no]);
  expect(await numbers({ from: t - 7200, to: t - 60 })).toEqual([early.trade_no]);
});

test("search finds an order by its platform number, its merchant number or its payable amount, and each arm keeps the other filters", async () => {
  const a = await createOrder(h, { money: "10.00", out_trade_no: "SHOP-77" });
  h.clock.advance(1);
  const b = await createOrder(h, { money: "10.00" }); // gets 9.99
  expect(b.trade_amount).toBe("9.99");
  expect(await numbers({ search: { tradeNo: a.trade_no } })).toEqual([a.trade_no]);
  expect(await numbers({ search: { outTradeNo: "SHOP-77" } })).toEqual([a.trade_no]);
  expect(await numbers({ search: { tradeAmount: 999 } })).toEqual([b.trade_no]);
  expect(await numbers({ search: { tradeAmount: 999, outTradeNo: "SHOP-77" } })).toEqual([b.trade_no, a.trade_no]);
  expect(await numbers({ search: { tradeAmount: 999 }, status: 2 })).toEqual([]);
  expect(await numbers({ search: { outTradeNo: "nothing" } })).toEqual([]);
});
