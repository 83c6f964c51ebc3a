// An order's timeline: every step of its life in time order, from the real rows of a real flow.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { orderTimeline } from "../../src/core/browse/timeline.ts";
import { confirmPaymentByHand } from "../../src/core/manual-payment.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

async function timelineOf(tradeNo: string) {
  const order = (await h.gw.store.getOrder(tradeNo))!;
  return orderTimeline({
    order,
    account: order.accountId === null ? null : await h.gw.store.getChannel(order.accountId),
    reports: await h.gw.store.browse.reportsForOrder(tradeNo, 50),
    notification: await h.gw.store.getNotification(tradeNo),
    now: h.clock.now(),
  });
}

test("created, allocated, a report that could not pay, the report that paid, the notification and its attempts, in time order", async () => {
  const o = await createOrder(h, { money: "10.00", notify_url: "http://127.0.0.1:9/n" });
  h.clock.advance(30);
  await amountReport(h, 1000, { order_id: o.trade_no, pay_type: "wxpay" }); // wrong pay type: names the order, pays nothing
  h.clock.advance(30);
  expect((await amountReport(h, 1000)).body.data.outcome).toBe("matched");
  const n = (await h.gw.store.getNotification(o.trade_no))!;
  h.clock.advance(5);
  await h.gw.store.recordNotificationAttempt(n.id, {
    attempt: { attemptedAt: h.clock.nowMs(), durationMs: 12, httpStatus: 200, body: "fail", error: "", acknowledged: false },
    status: "pending", nextAttemptAt: h.clock.nowMs() + 60_000,
  });
  const events = await timelineOf(o.trade_no);
  expect(events.map((e) => e.kind)).toEqual(["created", "allocated", "report", "report", "paid", "notify_queued", "notify_attempt"]);
  expect(events[1]!.detail).toMatchObject({ account: "Alipay A", trade_amount: 1000 });
  expect(events[2]!.detail).toMatchObject({ outcome: "unmatched" });
  expect(events[3]!.detail).toMatchObject({ outcome: "matched" });
  expect(events[4]!.detail).toMatchObject({ late: false });
  expect(JSON.parse(String(events[5]!.detail.sent))).toMatchObject({ trade_no: o.trade_no });
  expect(events[6]!.detail).toMatchObject({ http_status: 200, answer: "fail", acknowledged: false });
  const times = events.map((e) => e.atMs);
  expect(times).toEqual([...times].sort((a, b) => a - b));
});

test("a timed-out order shows when it timed out; a confirmation by hand long after shows paid with the operator's report, not late (issue 28)", async () => {
  const o = await createOrder(h);
  h.clock.advance(2000);
  expect((await timelineOf(o.trade_no)).map((e) => e.kind)).toEqual(["created", "allocated", "timed_out"]);
  await confirmPaymentByHand(h.gw, o.trade_no, { actor: "alice", reason: "bank statement" });
  const events = await timelineOf(o.trade_no);
  expect(events.map((e) => e.kind)).toEqual(["created", "allocated", "report", "paid"]);
  expect(events[2]!.detail).toMatchObject({ report_kind: "operator", client: "alice" });
  // Late means money reported after the expiry; an operator's 补单 says nothing about the payer.
  expect(events[3]!.detail).toMatchObject({ late: false });
});
