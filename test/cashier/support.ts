// Shared setup for the template API tests: orders created through the native route (with a pay type)
// or through the core (without one, as V2 submit and hash create do).
import { expect } from "bun:test";
import { createOrder } from "../../src/core/create-order.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { type Harness, nativeCreate, postJson } from "../helpers.ts";

export const api = (h: Harness, name: string, body: unknown, headers: Record<string, string> = {}) =>
  postJson(h, `/api/order/${name}?_time=${Date.now()}`, body, headers);

export async function nativeOrder(h: Harness, o: Record<string, string> = {}) {
  const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "C1", money: "10.00", ...o }));
  expect(body.code).toBe(200);
  return body.data as { trade_no: string; trade_amount: string };
}

/** A pending order with no pay type: the payer picks one on the cashier page. */
export async function untypedOrder(h: Harness, amount = 1000, outTradeNo = "U1") {
  const merchant = (await h.gw.store.getMerchant(1001))!;
  const r = await createOrder(h.gw, merchant, {
    pid: 1001, outTradeNo, family: "native", payType: "", name: "会员", amount,
    notifyUrl: "", returnUrl: "https://shop.example/back", param: "", clientip: "", device: "pc", extra: {},
  });
  if (!r.ok) throw new Error(r.reason);
  return r.order;
}

export async function pay(h: Harness, tradeNo: string) {
  const r = await payOrder(h.gw, tradeNo);
  expect(r.kind).toBe("paid");
}

export async function setOperator(h: Harness, values: Record<string, string>) {
  for (const [k, v] of Object.entries(values)) await h.gw.store.setSetting(k, v);
  h.gw.forgetSettings();
}
