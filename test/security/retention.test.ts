// Issue 14 item 4 (retention): reports that recorded no payment and the attempt log of finished
// notifications are deleted after their retention; reports that paid an order (the ledger, and the
// dedupe keys a re-sent payment is checked against) and a pending notification's attempts never.
// Issue 27 item 6: unmatched money (a report that paid no order) after its own, longer retention,
// unless the operator assigned it to an order: then it paid that order and stays with it.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { assignReportAs } from "../../src/core/order-actions.ts";
import { pruneHistory } from "../../src/core/retention.ts";
import { startRetention } from "../../src/server/retention-loop.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder, report, smsContent } from "../report/util.ts";

const DAY = 86_400;
let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const outcomes = async () => (await h.gw.store.listReports({ limit: 1000 })).map((r) => `${r.kind}:${r.outcome}`).sort();

async function attempt(tradeNo: string, status: "delivered" | "pending") {
  const n = (await h.gw.store.getNotification(tradeNo))!;
  const at = h.clock.nowMs();
  await h.gw.store.recordNotificationAttempt(n.id, {
    attempt: { attemptedAt: at, durationMs: 5, httpStatus: 500, body: "try later", error: "", acknowledged: status === "delivered" },
    status, nextAttemptAt: at + 15_000,
  });
}

/** One of everything: a paid order (and its delivered notification), a payment with no order, noise. */
async function history() {
  const paid = await createOrder(h, { notify_url: "http://127.0.0.1:9/a" });
  expect((await amountReport(h, 1000, { pay_time: "2026-01-01 10:00:00" })).body.data.outcome).toBe("matched");
  await attempt(paid.trade_no, "delivered");
  expect((await amountReport(h, 4321, { pay_time: "2026-01-01 10:05:00" })).body.data.outcome).toBe("unmatched");
  expect((await amountReport(h, 1000, { pay_time: "2026-01-01 10:00:00" })).body.data.outcome).toBe("duplicate");
  await report(h, "/1001/heart", { client_name: "phone-1" });
  await report(h, "/1001", { from: "x", content: smsContent("支付宝", "转账失败，10.00元已退回") });
  await report(h, "/424242/pc", { amount: 1, pay_type: "alipay", channel_code: "c" }); // refused: unknown merchant
  return paid;
}

test("after report_retention_days, only the reports of a payment remain; re-sending one still reads duplicate", async () => {
  await history();
  const all = await outcomes();
  expect(all).toEqual(["amount:duplicate", "amount:matched", "amount:rejected", "amount:unmatched", "heart:accepted", "message:unmatched"]);

  h.clock.advance(29 * DAY);
  expect((await pruneHistory(h.gw)).reports).toBe(0);
  expect(await outcomes()).toEqual(all);

  h.clock.advance(2 * DAY); // 31 days: past the default 30
  const n = await pruneHistory(h.gw);
  expect(n).toMatchObject({ reports: 4, counters: 3 }); // the refusal counter, the day counters of the unmatched bound
  expect(await outcomes()).toEqual(["amount:matched", "amount:unmatched"]);
  expect(await h.gw.store.listRefusalCounts({})).toEqual([]);

  // The phone re-sends the paid report a month later (fresh timestamp, same pay_time) while a new
  // order holds the same amount: its dedupe key is still there, so nothing is paid twice.
  const next = await createOrder(h);
  const again = await amountReport(h, 1000, { pay_time: "2026-01-01 10:00:00" });
  expect(again.body.data.outcome).toBe("duplicate");
  expect((await h.gw.store.getOrder(next.trade_no))!.status).toBe(1);
});

test("unmatched money goes after unmatched_retention_days (90); one the operator assigned to an order stays with it", async () => {
  const order = await createOrder(h, { money: "30.00" });
  const short = await amountReport(h, 2999, { pay_time: "2026-01-01 11:00:00" }); // the payer paid 29.99
  const stray = await amountReport(h, 4321, { pay_time: "2026-01-01 11:05:00" });
  expect([short.body.data.outcome, stray.body.data.outcome]).toEqual(["unmatched", "unmatched"]);
  const assigned = await assignReportAs(h.gw, CLI_ACTOR, short.body.data.report_id, order.trade_no, "payer paid 29.99 for 30.00");
  expect(assigned.ok).toBe(true);

  h.clock.advance(89 * DAY);
  await pruneHistory(h.gw);
  expect((await h.gw.store.listReports({ limit: 100 })).map((r) => r.id).sort()).toEqual([short.body.data.report_id, stray.body.data.report_id].sort());
  h.clock.advance(2 * DAY);
  expect((await pruneHistory(h.gw)).reports).toBe(1);
  const left = await h.gw.store.listReports({ limit: 100 });
  expect(left.map((r) => [r.id, r.outcome, r.tradeNo])).toEqual([[short.body.data.report_id, "matched", order.trade_no]]);
  expect((await h.gw.store.getOrder(order.trade_no))!.status).toBe(2);

  // 0 keeps unmatched money forever.
  const later = await amountReport(h, 5555, { pay_time: "2026-04-01 11:00:00" });
  await h.gw.store.setSetting("unmatched_retention_days", "0");
  h.gw.forgetSettings();
  h.clock.advance(3650 * DAY);
  await pruneHistory(h.gw);
  expect((await h.gw.store.listReports({ limit: 100 })).map((r) => r.id)).toContain(later.body.data.report_id);
});

test("attempts of finished notifications go after attempt_retention_days; a pending one keeps its history", async () => {
  const delivered = await history();
  const pending = await createOrder(h, { money: "20.00", notify_url: "http://127.0.0.1:9/b" });
  expect((await amountReport(h, 2000)).body.data.outcome).toBe("matched");
  await attempt(pending.trade_no, "pending");
  await h.gw.store.setSetting("attempt_retention_days", "7");
  h.gw.forgetSettings();

  h.clock.advance(8 * DAY);
  const n = await pruneHistory(h.gw);
  expect(n.attempts).toBe(1);
  expect(n.reports).toBe(0); // reports: 30 days
  expect((await h.gw.store.getNotification(delivered.trade_no))!.attempts_log).toEqual([]);
  expect((await h.gw.store.getNotification(pending.trade_no))!.attempts_log).toHaveLength(1);
});

test("0 keeps everything; the prune deletes in batches until done", async () => {
  await history();
  await h.gw.store.setSetting("report_retention_days", "0");
  await h.gw.store.setSetting("attempt_retention_days", "0");
  await h.gw.store.setSetting("unmatched_retention_days", "0");
  h.gw.forgetSettings();
  h.clock.advance(3650 * DAY);
  expect(await pruneHistory(h.gw)).toEqual({ reports: 0, attempts: 0, counters: 0 });

  await h.gw.store.setSetting("report_retention_days", "1");
  h.gw.forgetSettings();
  expect((await pruneHistory(h.gw, { batch: 1 })).reports).toBe(4);
});

test("serve's background prune runs at start and on its interval", async () => {
  await history();
  h.clock.advance(31 * DAY);
  const loop = startRetention(h.gw, { everyMs: 20 });
  for (let i = 0; i < 100 && (await outcomes()).length > 2; i++) await Bun.sleep(10);
  await loop.stop();
  expect(await outcomes()).toEqual(["amount:matched", "amount:unmatched"]);
});
