// Creates queued in one turn of the event loop share one write transaction (group commit); each
// runs in its own savepoint, so one that throws is rolled back alone and the others commit.
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { CreateOrderUnit } from "../../src/core/store.ts";
import { harness, type Harness, seed } from "../helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

function unit(out: string, allocate: CreateOrderUnit["allocate"] = null): CreateOrderUnit {
  const now = h.clock.now();
  return {
    order: { pid: 1001, outTradeNo: out, family: "native", payType: "alipay", name: "VIP", amount: 1000, notifyUrl: "", returnUrl: "", param: "", clientip: "", device: "pc", extra: {} },
    newTradeNo: () => `2026${Math.random().toString().slice(2, 18).padEnd(16, "0")}`,
    now, expireTime: now + 900, onExisting: () => ({ kind: "return" }), allocate,
  };
}

test("a unit that throws is rolled back alone; the units around it commit", async () => {
  const s = h.gw.store;
  const results = await Promise.allSettled([
    s.createOrder(unit("G1")),
    s.createOrder(unit("G2", () => { throw new Error("boom"); })),
    s.createOrder(unit("G3")),
  ]);
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(await s.getOrderByOutTradeNo(1001, "G1")).not.toBeNull();
  expect(await s.getOrderByOutTradeNo(1001, "G2")).toBeNull();
  expect(await s.getOrderByOutTradeNo(1001, "G3")).not.toBeNull();
});

test("units of one batch see each other's writes: a repeated out_trade_no returns the first order", async () => {
  const s = h.gw.store;
  const [a, b] = await Promise.all([s.createOrder(unit("G4")), s.createOrder(unit("G4"))]);
  expect(a.kind).toBe("created");
  expect(b.kind).toBe("existing");
  if (a.kind !== "error" && b.kind !== "error") expect(b.order.tradeNo).toBe(a.order.tradeNo);
});
