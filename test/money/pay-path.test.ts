// Issue 21: the pay path against the real store. Which orders the core's pay unit refuses (closed,
// failed, no pay type, late beyond the window), a late payment after the sweeper wrote status 4
// (paid and notified), the worker's wake-up after a core payment, and cancel of ended orders
// through the route a merchant calls.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { sweepExpired } from "../../src/core/expiry.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { startWorker } from "../../src/server/worker.ts";
import { harness, type Harness, postJson, seed, signed } from "../helpers.ts";
import { hashParams, hashPost } from "../hashpay/sdk.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";
import { amountReport, createOrder } from "../report/util.ts";

let h: Harness;
let rx: Receiver | null = null;
beforeEach(async () => {
  h = harness();
  await seed(h, { max: 50_000 });
});
afterEach(() => {
  rx?.stop();
  rx = null;
  h.close();
});

const order = (t: string) => h.gw.store.getOrder(t);
const notifications = () => h.gw.store.listNotifications({});
const cancel = (tradeNo: string) => postJson(h, "/xpay/order/cancel", signed({ pid: 1001, order_id: tradeNo, timestamp: h.clock.now() }));

describe("the core pay unit refuses what is not payable", () => {
  test("a closed order: not paid, no notification, by payOrder and by simulate-pay", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    expect((await cancel(o.trade_no)).body.code).toBe(200);
    expect(await payOrder(h.gw, o.trade_no)).toMatchObject({ kind: "not_payable", reason: "order is closed" });
    const sim = await settleOperatorPayment(h.gw, o.trade_no);
    expect(sim).toMatchObject({ outcome: "unmatched", reason: `order ${o.trade_no} is closed; nothing paid`, pay: null });
    expect((await order(o.trade_no))?.status).toBe(3);
    expect(await notifications()).toEqual([]);
  });

  test("an order that failed at creation and one without a pay type are not paid", async () => {
    const failed = await postJson(h, "/xpay/order/create", signed({ pid: 1001, pay_type: "alipay", name: "x", money: "600.00", out_trade_no: "BIG" }));
    const big = (await h.gw.store.listOrders({ status: 5 }))[0]!;
    expect(failed.body.code).not.toBe(200);
    expect(await payOrder(h.gw, big.tradeNo)).toMatchObject({ kind: "not_payable", reason: "order creation failed" });
    const picked = await hashPost(h, "/xpay/hashpay/payment/do.html", hashParams(h, { trade_order_id: "NOTYPE" }));
    expect(String(picked.errcode)).toBe("0");
    const none = (await h.gw.store.listOrders({})).find((x) => x.outTradeNo === "NOTYPE")!;
    expect(none.tradeAmount).toBeNull();
    expect(await payOrder(h.gw, none.tradeNo)).toMatchObject({ kind: "not_payable", reason: "order has no pay type yet" });
    expect((await order(none.tradeNo))?.status).toBe(1);
  });

  test("a paid order is paid once; an unknown trade_no is not found", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    const first = await payOrder(h.gw, o.trade_no, { buyer: "b@x", apiTradeNo: "API-1" });
    expect(first).toMatchObject({ kind: "paid", order: { status: 2, paidAt: h.clock.now(), buyer: "b@x", apiTradeNo: "API-1" } });
    expect(await payOrder(h.gw, o.trade_no)).toMatchObject({ kind: "already_paid" });
    expect((await notifications()).length).toBe(1);
    expect(await payOrder(h.gw, "20260101000000000000")).toEqual({ kind: "not_found" });
  });

  test("an order with no notify_url is paid without an outbox row", async () => {
    const o = await createOrder(h);
    expect(await payOrder(h.gw, o.trade_no)).toMatchObject({ kind: "paid", notificationId: null });
    expect(await notifications()).toEqual([]);
  });
});

describe("a late payment after the sweeper wrote status 4", () => {
  test("inside the match window: paid and its notification enqueued (report API)", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    h.clock.advance(900 + 300);
    expect(await sweepExpired(h.gw)).toBe(1);
    expect((await order(o.trade_no))?.status).toBe(4);
    const r = await amountReport(h, 1000);
    expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
    expect((await order(o.trade_no))?.status).toBe(2);
    const n = await h.gw.store.getNotification(o.trade_no);
    expect(n).toMatchObject({ status: "pending", family: "native", url: "http://127.0.0.1:9/n", attempts: 0 });
    expect(n?.params).toMatchObject({ trade_no: o.trade_no, out_trade_no: o.out_trade_no });
  });

  test("inside the match window through the core pay path too; the window's edge is inclusive", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    h.clock.advance(900 + 600); // expired exactly match_window (600 s) ago
    await sweepExpired(h.gw);
    expect(await payOrder(h.gw, o.trade_no)).toMatchObject({ kind: "paid", order: { status: 2 } });
    expect((await notifications()).map((n) => n.tradeNo)).toEqual([o.trade_no]);
  });

  test("one second beyond the window: not paid by the core or by a report", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    h.clock.advance(900 + 601);
    await sweepExpired(h.gw);
    expect(await payOrder(h.gw, o.trade_no)).toMatchObject({ kind: "not_payable", reason: "order timed out beyond the match window" });
    expect((await amountReport(h, 1000)).body.data.outcome).toBe("unmatched");
    expect((await amountReport(h, 1000, { order_id: o.trade_no })).body.data.reason).toMatch(/timed out more than 600 s ago/);
    expect((await order(o.trade_no))?.status).toBe(4);
    expect(await notifications()).toEqual([]);
  });

  test("the report's window edge is inclusive as well", async () => {
    const o = await createOrder(h);
    h.clock.advance(900 + 600);
    await sweepExpired(h.gw);
    expect((await amountReport(h, 1000)).body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
  });
});

describe("the worker wakes at once", () => {
  test("after a payment through the core pay path (not only the report path)", async () => {
    rx = startReceiver(["success"]);
    const worker = startWorker(h.gw, { pollMs: 1000 });
    try {
      await new Promise((r) => setTimeout(r, 50)); // let the first poll pass: the next is a second away
      const o = await createOrder(h, { notify_url: rx.url });
      const t0 = performance.now();
      expect((await payOrder(h.gw, o.trade_no)).kind).toBe("paid");
      await rx.waitFor(1, 800);
      expect(performance.now() - t0).toBeLessThan(800);
      expect(rx.received[0]!.params.trade_no).toBe(o.trade_no);
    } finally {
      await worker.stop();
    }
  });
});

describe("cancel through the route", () => {
  test("a paid order cannot be closed and stays paid", async () => {
    const o = await createOrder(h);
    await payOrder(h.gw, o.trade_no);
    const r = await cancel(o.trade_no);
    expect(r.body).toMatchObject({ code: 409, msg: "order is paid and cannot be closed" });
    expect((await order(o.trade_no))?.status).toBe(2);
  });

  test("closed, timed out and failed orders each say why; a pending one closes", async () => {
    const o = await createOrder(h);
    expect((await cancel(o.trade_no)).body.code).toBe(200);
    expect((await order(o.trade_no))).toMatchObject({ status: 3, closedAt: h.clock.now() });
    expect((await cancel(o.trade_no)).body).toMatchObject({ code: 409, msg: "order is already closed" });
    const late = await createOrder(h, { money: "20.00" });
    h.clock.advance(900); // expire_time reached: reads as timed out before the sweeper runs
    expect((await cancel(late.trade_no)).body).toMatchObject({ code: 409, msg: "order has timed out and cannot be closed" });
    await postJson(h, "/xpay/order/create", signed({ pid: 1001, pay_type: "alipay", name: "x", money: "600.00", out_trade_no: "BIG", timestamp: h.clock.now() }));
    const big = (await h.gw.store.listOrders({ status: 5 }))[0]!;
    expect((await cancel(big.tradeNo)).body).toMatchObject({ code: 409, msg: "order creation failed; there is nothing to close" });
  });

  test("one second before expire_time a pending order still closes", async () => {
    const o = await createOrder(h);
    h.clock.advance(899);
    expect((await cancel(o.trade_no)).body.code).toBe(200);
  });
});
