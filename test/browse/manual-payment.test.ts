// The operator's manual payments: confirm by hand (补单) and assigning an unmatched report. Both pay
// through the store's pay unit, so the order, its outbox row and the stored report change together.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { assignReportToOrder, confirmPaymentByHand } from "../../src/core/manual-payment.ts";
import { installMetrics } from "../../src/server/metrics/registry.ts";
import { harness, type Harness, nativeCreate, postJson, seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const act = { actor: "alice", reason: "支付宝账单 10:02 ¥9.99" };

async function unmatched(amount: number) {
  const r = await amountReport(h, amount);
  expect(r.body.data.outcome).toBe("unmatched");
  return r.body.data.report_id as number;
}

test("confirm by hand pays a timed-out order long after the match window, queues its notification and stores an operator report", async () => {
  const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
  h.clock.advance(3 * 3600);
  const r = await confirmPaymentByHand(h.gw, o.trade_no, act);
  expect(r.ok).toBe(true);
  const paid = await h.gw.store.getOrder(o.trade_no);
  expect(paid?.status).toBe(2);
  expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("pending");
  const reports = await h.gw.store.browse.reportsForOrder(o.trade_no, 10);
  expect(reports).toHaveLength(1);
  expect(reports[0]).toMatchObject({ kind: "operator", client: "alice", outcome: "matched" });
  expect(JSON.parse(reports[0]!.raw)).toMatchObject({ by: "alice", reason: act.reason });
});

test("confirm by hand refuses without a reason, and refuses paid, closed and failed orders, changing nothing", async () => {
  const o = await createOrder(h);
  expect(await confirmPaymentByHand(h.gw, o.trade_no, { actor: "alice", reason: " " })).toMatchObject({ ok: false, reason: expect.stringContaining("reason is required") });
  expect((await h.gw.store.getOrder(o.trade_no))?.status).toBe(1);
  expect((await confirmPaymentByHand(h.gw, o.trade_no, act)).ok).toBe(true);
  expect(await confirmPaymentByHand(h.gw, o.trade_no, act)).toMatchObject({ ok: false, reason: expect.stringContaining("already paid") });
  const c = await createOrder(h, { money: "11.00" });
  await h.gw.store.closeOrder(c.trade_no, h.clock.now());
  expect(await confirmPaymentByHand(h.gw, c.trade_no, act)).toMatchObject({ ok: false, reason: expect.stringContaining("closed") });
  expect(await confirmPaymentByHand(h.gw, "20260101000000000000", act)).toMatchObject({ ok: false, reason: expect.stringContaining("no order") });
  expect(await h.gw.store.listReports({})).toHaveLength(1); // only the one confirmation
});

test("an unmatched report assigned to the order it was meant for pays it once; the report reads matched with who and why", async () => {
  const o = await createOrder(h, { money: "10.00", notify_url: "http://127.0.0.1:9/n" });
  const id = await unmatched(999); // the payer paid 9.99 instead of 10.00
  const r = await assignReportToOrder(h.gw, id, o.trade_no, act);
  expect(r.kind).toBe("assigned");
  expect((await h.gw.store.getOrder(o.trade_no))?.status).toBe(2);
  const report = await h.gw.store.browse.getReport(id);
  expect(report).toMatchObject({ outcome: "matched", tradeNo: o.trade_no });
  expect(report?.reason).toContain("by alice");
  expect(report?.reason).toContain("reported 999 cents, order payable 1000 cents");
  expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("pending");
  // A second assignment of the same report, or of another to the paid order, changes nothing.
  expect(await assignReportToOrder(h.gw, id, o.trade_no, act)).toMatchObject({ kind: "refused", reason: expect.stringContaining("is matched") });
  const other = await unmatched(998);
  expect(await assignReportToOrder(h.gw, other, o.trade_no, act)).toMatchObject({ kind: "refused", reason: expect.stringContaining("already paid") });
  expect((await h.gw.store.browse.getReport(other))?.outcome).toBe("unmatched");
});

test("assignment refuses an order created after the payment, or ended more than the match window before it", async () => {
  const id = await unmatched(999);
  h.clock.advance(10);
  const later = await createOrder(h);
  expect(await assignReportToOrder(h.gw, id, later.trade_no, act)).toMatchObject({ kind: "refused", reason: expect.stringContaining("created after the payment") });

  const old = await createOrder(h, { money: "20.00" });
  h.clock.advance(900 + 601); // expired, then the match window passed
  const late = await unmatched(1999);
  expect(await assignReportToOrder(h.gw, late, old.trade_no, act)).toMatchObject({ kind: "refused", reason: expect.stringContaining("had ended more than 600 s") });
  expect((await h.gw.store.getOrder(old.trade_no))?.status).not.toBe(2);
});

test("assignment refuses another merchant's order, a heartbeat, and a missing report or order", async () => {
  await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "b".repeat(32), now: h.clock.now() });
  const id = await unmatched(999);
  const mine = await createOrder(h);
  const row = (await h.gw.store.getOrder(mine.trade_no))!;
  // The same order seen as merchant 1002's: the report of merchant 1001 may not pay it.
  const { assignProblem } = await import("../../src/core/assign-report.ts");
  const report = (await h.gw.store.browse.getReport(id))!;
  expect(assignProblem(report, { ...row, pid: 1002 }, 600)).toContain("belongs to merchant 1002");
  expect(assignProblem({ ...report, kind: "heart" }, row, 600)).toContain("not a payment");
  expect(await assignReportToOrder(h.gw, 424242, mine.trade_no, act)).toEqual({ kind: "not_found", what: "report" });
  expect(await assignReportToOrder(h.gw, id, "20260101000000000000", act)).toEqual({ kind: "not_found", what: "order" });
  expect(await assignReportToOrder(h.gw, id, mine.trade_no, { actor: "alice", reason: "" })).toMatchObject({ kind: "refused" });
  expect((await h.gw.store.getOrder(mine.trade_no))?.status).toBe(1);
});

test("the attention list shows money received with no order, not other unmatched entries", async () => {
  await unmatched(4242);
  await h.gw.store.insertReport({ kind: "operator", pid: 1001, client: "alice", raw: "{}", amount: 100, payType: "alipay", channelCode: "", dedupeKey: null, outcome: "unmatched", reason: "x", tradeNo: null, createdAt: h.clock.now() });
  const a = await h.gw.store.browse.attention({ since: 0, limit: 10, minAttempts: 3 });
  expect(a.unmatchedReports.map((r) => r.amount)).toEqual([4242]);
});

test("the attention list shows late payments, creation failures and notifications failing or given up", async () => {
  const late = await createOrder(h, { money: "10.00", notify_url: "http://127.0.0.1:9/n" });
  h.clock.advance(901); // timed out; the payment arrives inside the match window
  expect((await amountReport(h, 1000)).body.data.outcome).toBe("matched");
  await postJson(h, "/xpay/order/create", nativeCreate({ pay_type: "qqpay" })); // no qqpay account: creation fails
  const failedNo = (await h.gw.store.browse.searchOrders({ status: 5, limit: 1, now: h.clock.now() }))[0]?.tradeNo;
  expect(failedNo).toBeDefined();
  const n = (await h.gw.store.getNotification(late.trade_no))!;
  const attempt = { attemptedAt: h.clock.nowMs(), durationMs: 5, httpStatus: 500, body: "oops", error: "", acknowledged: false };
  for (let i = 0; i < 3; i++) await h.gw.store.recordNotificationAttempt(n.id, { attempt, status: "pending", nextAttemptAt: h.clock.nowMs() + 60_000 });
  const a = await h.gw.store.browse.attention({ since: 0, limit: 10, minAttempts: 3 });
  expect(a.latePayments.map((o) => o.tradeNo)).toEqual([late.trade_no]);
  expect(a.creationFailures.map((o) => o.tradeNo)).toEqual([failedNo!]);
  expect(a.failingNotifications.map((x) => [x.tradeNo, x.pid, x.lastError])).toEqual([[late.trade_no, 1001, "HTTP 500"]]);
  expect((await h.gw.store.browse.attention({ since: 0, limit: 10, minAttempts: 4 })).failingNotifications).toEqual([]);
});

test("orders paid by hand or by assignment count as paid in /metrics, like any payment", async () => {
  const metrics = installMetrics(h.gw);
  const paid = () => metrics.registry.getSingleMetricAsString("xpay_orders_paid_total");
  const a = await createOrder(h, { money: "10.00" });
  await confirmPaymentByHand(h.gw, a.trade_no, act);
  const b = await createOrder(h, { money: "20.00" });
  const id = await unmatched(1999);
  expect((await assignReportToOrder(h.gw, id, b.trade_no, act)).kind).toBe("assigned");
  expect(await paid()).toContain('xpay_orders_paid_total{family="native",pay_type="alipay"} 2');
});
