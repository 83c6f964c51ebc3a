// End to end on a real port: create (native) -> report -> paid -> notification with a valid
// signature -> the merchant answers fail twice, then success -> delivered, attempts recorded.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { MAX_ATTEMPTS, nextRetryAt, RETRY_DELAYS_S } from "../../src/core/notify/schedule.ts";
import { md5Sign } from "../../src/protocols/signing.ts";
import { harness, type Harness, SECRET, seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

let h: Harness;
let rx: Receiver | null = null;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => {
  rx?.stop();
  rx = null;
  h.close();
});

function expectValidNativeSignature(params: Record<string, string>) {
  const { sign, ...fields } = params;
  expect(sign).toBe(md5Sign(fields, SECRET, ["sign"]));
}

describe("notification delivery", () => {
  test("fail twice then success: three attempts on the retry schedule, then delivered", async () => {
    rx = startReceiver(["fail", "fail", "success"]);
    const o = await createOrder(h, { notify_url: rx.url, param: "a=b &c+d 中文" });
    expect((await amountReport(h, 1000)).body.data.outcome).toBe("matched");

    expect(await deliverDue(h.gw)).toEqual({ attempted: 1, delivered: 0 });
    expect(await deliverDue(h.gw)).toEqual({ attempted: 0, delivered: 0 }); // not due for 15 s
    h.clock.advance(15);
    expect(await deliverDue(h.gw)).toEqual({ attempted: 1, delivered: 0 });
    h.clock.advance(14);
    expect((await deliverDue(h.gw)).attempted).toBe(0);
    h.clock.advance(1);
    expect(await deliverDue(h.gw)).toEqual({ attempted: 1, delivered: 1 });

    expect(rx.received.length).toBe(3);
    const first = rx.received[0]!;
    expect(first.method).toBe("POST");
    expect(first.contentType).toContain("application/x-www-form-urlencoded");
    expect(first.params).toMatchObject({
      pid: "1001", trade_no: o.trade_no, out_trade_no: o.out_trade_no, pay_type: "alipay", name: "VIP",
      amount: "1000", trade_amount: "1000", param: "a=b &c+d 中文", status: "2",
    });
    for (const r of rx.received) expectValidNativeSignature(r.params);

    const n = await h.gw.store.getNotification(o.trade_no);
    expect(n?.status).toBe("delivered");
    expect(n?.attempts).toBe(3);
    expect(n?.attempts_log.map((a) => [a.httpStatus, a.body, a.acknowledged])).toEqual([
      [200, "fail", false],
      [200, "fail", false],
      [200, "success", true],
    ]);
    expect(n?.attempts_log[0]?.error).toBe("response is not an acknowledgement");
  });

  test("GET when the merchant's notify method says so", async () => {
    rx = startReceiver(["ok, success"]);
    await h.gw.store.updateMerchant(1001, { notifyMethod: "GET" });
    const o = await createOrder(h, { notify_url: `${"http://127.0.0.1"}:1/x` });
    // Point the order's notification at the receiver with a query of its own.
    const o2 = await createOrder(h, { money: "20.00", notify_url: `${rx.url}?shop=1` });
    await amountReport(h, 2000);
    expect(await deliverDue(h.gw)).toEqual({ attempted: 1, delivered: 1 });
    expect(rx.received[0]?.method).toBe("GET");
    const { shop, ...params } = rx.received[0]!.params;
    expect(shop).toBe("1");
    expect(params.trade_no).toBe(o2.trade_no);
    expectValidNativeSignature(params);
    expect((await h.gw.store.getOrder(o.trade_no))?.status).toBe(1);
  });

  test("redirects are not followed; errors and timeouts are recorded", async () => {
    rx = startReceiver([new Response("success", { status: 302, headers: { location: "http://127.0.0.1:1/" } }), new Response("success", { status: 500 })]);
    const o = await createOrder(h, { notify_url: rx.url });
    await amountReport(h, 1000);
    await deliverDue(h.gw);
    h.clock.advance(15);
    await deliverDue(h.gw);
    const log = (await h.gw.store.getNotification(o.trade_no))!.attempts_log;
    expect(log.map((a) => [a.httpStatus, a.error, a.acknowledged])).toEqual([
      [302, "redirect (HTTP 302) not followed", false],
      [500, "HTTP 500", false],
    ]);
    expect(rx.received.length).toBe(2);
  });

  test("a merchant that never answers times out", async () => {
    const hang = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>(() => {}) });
    try {
      const o = await createOrder(h, { notify_url: `http://127.0.0.1:${hang.port}/n` });
      await amountReport(h, 1000);
      await deliverDue(h.gw, { maxTimeoutMs: 150 });
      const [a] = (await h.gw.store.getNotification(o.trade_no))!.attempts_log;
      expect(a).toMatchObject({ httpStatus: null, error: "timed out after 150 ms", acknowledged: false });
    } finally {
      hang.stop(true);
    }
  });

  test("replay re-queues a delivered notification; two claims never share a row", async () => {
    rx = startReceiver(["success"]);
    const o = await createOrder(h, { notify_url: rx.url });
    await amountReport(h, 1000);
    const now = h.clock.nowMs();
    const a = await h.gw.store.claimDueNotifications(now, 10, 90_000);
    const b = await h.gw.store.claimDueNotifications(now, 10, 90_000);
    expect([a.length, b.length]).toEqual([1, 0]);
    h.clock.advance(91); // the lease of a claimer that died runs out
    expect((await deliverDue(h.gw)).delivered).toBe(1);
    expect(await h.gw.store.requeueNotification(o.trade_no, h.clock.nowMs())).toBe(true);
    expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("pending");
    expect((await deliverDue(h.gw)).delivered).toBe(1);
    expect(rx.received.length).toBe(2);
  });

  test("after the last scheduled attempt the notification is failed", async () => {
    rx = startReceiver(["fail"]);
    const o = await createOrder(h, { notify_url: rx.url });
    await amountReport(h, 1000);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      expect((await deliverDue(h.gw)).attempted).toBe(1);
      h.clock.advance(RETRY_DELAYS_S[i] ?? 3600);
    }
    expect((await deliverDue(h.gw)).attempted).toBe(0);
    const n = await h.gw.store.getNotification(o.trade_no);
    expect([n?.status, n?.attempts]).toEqual(["failed", 16]);
  });

  test("an attempt signs with the merchant the outbox row keeps (037): the order is not read again", async () => {
    rx = startReceiver(["success"]);
    const o = await createOrder(h, { notify_url: rx.url });
    await amountReport(h, 1000);
    const read = h.gw.store.getOrder;
    const orderReads: string[] = [];
    h.gw.store.getOrder = (t) => (orderReads.push(t), read(t));
    try {
      expect(await deliverDue(h.gw)).toEqual({ attempted: 1, delivered: 1 });
    } finally {
      h.gw.store.getOrder = read;
    }
    expect(orderReads).toEqual([]);
    expect(rx.received.map((r) => r.params.trade_no)).toEqual([o.trade_no]);
    expectValidNativeSignature(rx.received[0]!.params);
  });

  test("an order without notify_url gets no outbox row", async () => {
    const o = await createOrder(h);
    await amountReport(h, 1000);
    expect((await h.gw.store.getOrder(o.trade_no))?.status).toBe(2);
    expect(await h.gw.store.getNotification(o.trade_no)).toBeNull();
  });
});

describe("retry schedule", () => {
  test("16 attempts over about 24 hours, then failed", () => {
    expect(MAX_ATTEMPTS).toBe(16);
    expect(nextRetryAt(1, 0)).toBe(15_000);
    expect(nextRetryAt(4, 0)).toBe(180_000);
    expect(nextRetryAt(15, 0)).toBe(6 * 3600_000);
    expect(nextRetryAt(16, 0)).toBeNull();
    const total = RETRY_DELAYS_S.reduce((s, d) => s + d, 0);
    expect(total / 3600).toBeGreaterThan(23);
    expect(total / 3600).toBeLessThan(26);
  });
});
