// `xpay order close` runs the protocols' cancel path (core/cancel-order.ts), with the same words a
// merchant's cancel call gets; `order list --status` takes words like `notify list` (issue 15).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, nativeCreate, SECRET, signed, tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-close-");
const db = join(dir, "close.db");
const { xpay, json, refused } = cliOn(db);
let gw: Gateway;
let past: Gateway; // the same file, an hour ago: its orders have timed out by now

async function call(g: Gateway, path: string, params: Record<string, string | number>) {
  const res = await buildApp(g).handle(new Request(`http://localhost${path}`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params),
  }));
  return (await res.json()) as { code: number; msg: string; data: { trade_no: string } };
}
const create = (g: Gateway, o: Record<string, string> = {}) => call(g, "/xpay/order/create", nativeCreate(o));
const nativeCancel = (tradeNo: string) => call(gw, "/xpay/order/cancel", signed({ pid: 1001, order_id: tradeNo, timestamp: gw.clock.now() }));

const orders: Record<string, string> = {};

beforeAll(async () => {
  gw = openGateway({ db, baseUrl: BASE });
  past = openGateway({ db, baseUrl: BASE, clock: new ManualClock(Date.now() - 3600_000) });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
  await gw.store.addChannel({ pid: 0, payType: "alipay", code: "c1", name: "A", qrcode: "https://qr.alipay.com/1", now: gw.clock.now() });
  orders.pending = (await create(gw, { money: "1.00" })).data.trade_no;
  orders.paid = (await create(gw, { money: "2.00" })).data.trade_no;
  orders.open = (await create(gw, { money: "3.00" })).data.trade_no;
  orders.expired = (await create(past, { money: "4.00" })).data.trade_no;
  const failed = await create(gw, { money: "5.00", pay_type: "qqpay" }); // no qqpay account
  orders.failed = (await gw.store.listOrders({ status: 5 }))[0]!.tradeNo;
  expect(failed.code).not.toBe(200);
  expect(xpay("simulate-pay", orders.paid).code).toBe(0);
});
afterAll(() => {
  gw.store.close();
  past.store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("order close", () => {
  test("closes a pending order; the order can no longer be paid", async () => {
    const r = xpay("order", "close", orders.pending!);
    expect({ code: r.code, out: r.out, err: r.err }).toEqual({ code: 0, out: `order ${orders.pending} closed\n`, err: "" });
    expect((await gw.store.getOrder(orders.pending!))!.status).toBe(3);
    expect(xpay("simulate-pay", orders.pending!).code).toBe(1);
    expect((await gw.store.getOrder(orders.pending!))!.status).toBe(3);
  });

  test("paid, closed, timed-out and failed orders: one line, nothing changed, the cancel API's own words", async () => {
    const cases: [string, string][] = [
      ["paid", "order is paid and cannot be closed"],
      ["pending", "order is already closed"],
      ["expired", "order has timed out and cannot be closed"],
      ["failed", "order creation failed; there is nothing to close"],
    ];
    for (const [which, message] of cases) {
      refused(["order", "close", orders[which]!], message);
      expect((await nativeCancel(orders[which]!)).msg).toBe(message);
    }
    refused(["order", "close", "20240101000000123456"], "no order 20240101000000123456");
  });
});

describe("order list --status takes words like notify list", () => {
  const listed = (s: string) => json("order", "list", "--status", s).map((o: { trade_no: string }) => o.trade_no);
  test("each word and its number", () => {
    const expected: [string, string, string][] = [["pending", "1", "open"], ["paid", "2", "paid"], ["closed", "3", "pending"], ["expired", "4", "expired"], ["failed", "5", "failed"]];
    for (const [word, num, which] of expected) {
      expect(listed(word)).toEqual([orders[which]]);
      expect(listed(num)).toEqual([orders[which]]);
    }
  });

  test("anything else is one line with the valid words", () => {
    for (const bad of ["done", "0", "6", "timed out", "PAID", ""]) {
      refused(["order", "list", "--status", bad], "--status must be one of: pending, paid, closed, expired, failed (or 1-5)");
    }
  });
});
