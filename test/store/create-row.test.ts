// A created order is built from what was inserted, not read back: it must equal the stored row,
// column defaults included, whether the order got an account, failed, or has no pay type yet.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { ruleFor } from "../../src/core/create-order.ts";
import type { CreateOrderUnit } from "../../src/core/store.ts";
import { Settings } from "../../src/core/settings.ts";
import type { Family } from "../../src/core/types.ts";
import { harness, type Harness, seed } from "../helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h, { max: 50_00 });
});
afterEach(() => h.close());

function unit(out: string, amount: number, payType: string): CreateOrderUnit {
  const now = h.clock.now();
  const order = { pid: 1001, outTradeNo: out, family: "epay-v2" as Family, payType, name: "会员 VIP", amount, notifyUrl: "http://127.0.0.1:9/n", returnUrl: "http://127.0.0.1:9/r", param: "a=1&b=2", clientip: "10.0.0.1", device: "mobile", extra: { method: "web", attach: "{\"x\":1}" } };
  return {
    order, now, expireTime: now + 900, onExisting: () => ({ kind: "return" }),
    newTradeNo: () => `2026${Math.random().toString().slice(2, 18).padEnd(16, "0")}`,
    allocate: payType === "" ? null : ruleFor({ pid: 1001, payType, amount }, now, new Settings({})),
  };
}

test.each([
  ["allocated", 10_00, "alipay", 1],
  ["failed: above the account's maximum", 60_00, "alipay", 5],
  ["no pay type yet", 10_00, "", 1],
])("%s: the returned order equals the stored row", async (_name, amount, payType, status) => {
  const r = await h.gw.store.createOrder(unit(`R${amount}${payType}`, amount, payType));
  expect(r.kind).toBe("created");
  if (r.kind !== "created") return;
  expect(r.order.status as number).toBe(status as number);
  expect(r.order).toEqual((await h.gw.store.getOrder(r.order.tradeNo))!);
});
