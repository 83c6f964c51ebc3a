import { afterEach, beforeEach, expect, test } from "bun:test";
import { findMerchantOrder } from "../../src/core/find-order.ts";
import { harness, type Harness, nativeCreate, postJson, SECRET, seed } from "../helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
  await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: SECRET, now: 0 });
});
afterEach(() => h.close());

test("finds by either number, never another merchant's order, and refuses numbers that disagree", async () => {
  const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "F1" }));
  const tradeNo = body.data.trade_no as string;
  expect(await findMerchantOrder(h.gw, 1001, { tradeNo })).toMatchObject({ ok: true, order: { outTradeNo: "F1" } });
  expect(await findMerchantOrder(h.gw, 1001, { outTradeNo: "F1" })).toMatchObject({ ok: true, order: { tradeNo } });
  expect(await findMerchantOrder(h.gw, 1002, { tradeNo })).toMatchObject({ ok: false, kind: "not_found" });
  expect(await findMerchantOrder(h.gw, 1002, { outTradeNo: "F1" })).toMatchObject({ ok: false, kind: "not_found" });
  expect(await findMerchantOrder(h.gw, 1001, { tradeNo, outTradeNo: "F2" })).toMatchObject({ ok: false, kind: "mismatch" });
  expect(await findMerchantOrder(h.gw, 1001, {})).toMatchObject({ ok: false, kind: "not_found" });
});
