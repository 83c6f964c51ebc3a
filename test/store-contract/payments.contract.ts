// Payments: the conditional pay unit with its outbox row, report settlement (dedupe, ambiguity,
// another merchant's order on a shared account), stored reports and the operator's assignment.
import { expect, test } from "bun:test";
import { assignProblem } from "../../src/core/assign-report.ts";
import { because } from "../../src/core/reasons.ts";
import { account, claim, create, type Ctx, merchant, payUnit, POLICY, report, settleUnit, T0 } from "./harness.ts";

export function paymentsContract(ctx: Ctx): void {
  test("pay: the order and its notification row in one unit; a second payment changes nothing", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const o = await create(s);
    const r = await s.payOrder({ ...payUnit(o.tradeNo, T0 + 20), apiTradeNo: "ALI-1", buyer: "buyer@x" });
    expect(r.kind).toBe("paid");
    if (r.kind !== "paid") return;
    expect(r.order).toMatchObject({ status: 2, paidAt: T0 + 20, apiTradeNo: "ALI-1", buyer: "buyer@x" });
    const n = await s.getNotification(o.tradeNo);
    expect(n).toMatchObject({ id: r.notificationId!, status: "pending", attempts: 0, nextAttemptAt: (T0 + 20) * 1000, url: o.notifyUrl, method: "POST" });
    expect(n!.params).toEqual({ trade_no: o.tradeNo, money: "1000" });
    expect(n!.attempts_log).toEqual([]);
    const again = await s.payOrder(payUnit(o.tradeNo, T0 + 30));
    expect(again.kind).toBe("already_paid");
    expect((await s.listNotifications({})).length).toBe(1);
    expect(await s.payOrder(payUnit("missing"))).toEqual({ kind: "not_found" });
  });

  test("pay: no notify_url, no outbox row; closed, failed and too-late orders are not payable", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const quiet = await create(s, { notifyUrl: "" });
    const r = await s.payOrder(payUnit(quiet.tradeNo));
    expect(r.kind === "paid" && r.notificationId).toBeNull();
    expect(await s.getNotification(quiet.tradeNo)).toBeNull();
    const closed = await create(s);
    await s.closeOrder(closed.tradeNo, T0 + 1);
    expect(await s.payOrder(payUnit(closed.tradeNo))).toMatchObject({ kind: "not_payable", reason: "order is closed" });
    const late = await create(s);
    await s.expireOrders(late.expireTime);
    expect((await s.payOrder(payUnit(late.tradeNo, late.expireTime + 10))).kind).toBe("paid"); // late, within the window
    const tooLate = await create(s, {}, { now: T0 + 1000 });
    const after = tooLate.expireTime + POLICY.matchWindow + 1;
    expect(await s.payOrder(payUnit(tooLate.tradeNo, after))).toMatchObject({ kind: "not_payable", reason: "order timed out beyond the match window" });
    expect((await s.getOrder(tooLate.tradeNo))!.status).toBe(1);
  });

  test("settle: the one payable order with that amount is paid; the report is stored with it", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const o = await create(s, { amount: 1234 });
    const r = await s.settleReport(settleUnit(claim({ amount: 1234 }), { dedupeKey: "k1" }));
    expect(r).toMatchObject({ outcome: "matched", reason: "paid", tradeNo: o.tradeNo });
    expect(r.pay?.kind).toBe("paid");
    expect((await s.getOrder(o.tradeNo))!.status).toBe(2);
    expect(await s.getNotification(o.tradeNo)).not.toBeNull();
    const [stored] = await s.listReports({});
    expect(stored).toMatchObject({ id: r.reportId, outcome: "matched", tradeNo: o.tradeNo, dedupeKey: "k1", amount: 1234, pid: 1001 });
    expect(stored).toMatchObject({ reason: "paid", reasonCode: "paid", reasonArgs: "{}" });
  });

  test("settle: a report keeps its reason as a code with parameters (amounts in cents) beside the English", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const r = await s.settleReport(settleUnit(claim({ amount: 6660, outOrderId: "A1" })));
    expect(r.reason).toBe("out_order_id A1 names no order of this merchant; no pending order matches amount 6660, pay_type alipay");
    const [stored] = await s.listReports({});
    expect(stored!.reason).toBe(r.reason);
    expect(stored!.reasonCode).toBe("no_pending");
    expect(JSON.parse(stored!.reasonArgs!)).toEqual({ claim: { amount: 6660, pay_type: "alipay" }, notes: [{ field: "out_order_id", id: "A1", mine: true }] });
    // A duplicate is coded by the store itself; a row without a code (a refusal, an older row) reads null.
    await s.settleReport(settleUnit(claim({ amount: 6661 }), { dedupeKey: "d" }));
    await s.settleReport(settleUnit(claim({ amount: 6661 }), { dedupeKey: "d" }));
    await s.insertReport(report({ outcome: "accepted", reason: "1 account(s) online" }));
    const [plain, dup] = await s.listReports({});
    expect(dup).toMatchObject({ outcome: "duplicate", reasonCode: "duplicate", reasonArgs: "{}" });
    expect(plain).toMatchObject({ reason: "1 account(s) online", reasonCode: null, reasonArgs: null });
  });

  test("settle: the same dedupe key again is a duplicate and pays nothing; another key reads 'already paid'", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const o = await create(s);
    await s.settleReport(settleUnit(claim(), { dedupeKey: "same" }));
    const dup = await s.settleReport(settleUnit(claim(), { dedupeKey: "same" }));
    expect(dup).toMatchObject({ outcome: "duplicate", reason: "duplicate of an earlier report", tradeNo: null, pay: null });
    const resent = await s.settleReport(settleUnit(claim(), { dedupeKey: "other" }, T0 + 20));
    expect(resent.outcome).toBe("unmatched");
    expect(resent.reason).toBe(`order ${o.tradeNo} is already paid; nothing changed`);
    expect((await s.listNotifications({})).length).toBe(1);
    expect((await s.listReports({ outcome: "duplicate" })).length).toBe(1);
  });

  test("settle: two payable orders with one amount on two accounts pay nothing and name both", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s);
    const b = await account(s);
    const x = await create(s);
    const y = await create(s);
    expect([x.accountId, y.accountId].sort()).toEqual([a.id, b.id].sort());
    const r = await s.settleReport(settleUnit(claim()));
    expect(r.outcome).toBe("unmatched");
    expect(r.reason).toContain("2 pending orders match");
    expect(r.reason).toContain(x.tradeNo);
    expect(r.reason).toContain(y.tradeNo);
    expect((await s.getOrder(x.tradeNo))!.status).toBe(1);
    const named = await s.settleReport(settleUnit(claim({ accountId: b.id })));
    expect(named).toMatchObject({ outcome: "matched", tradeNo: (x.accountId === b.id ? x : y).tradeNo });
  });

  test("settle: a merchant's report never pays another merchant's order on a shared account", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await account(s, { pid: 0 });
    const theirs = await create(s, { pid: 1002 });
    const r = await s.settleReport(settleUnit(claim({ pid: 1001 })));
    expect(r.outcome).toBe("unmatched");
    expect(r.reason).toContain("belongs to another merchant");
    const byId = await s.settleReport(settleUnit(claim({ pid: 1001, orderId: theirs.tradeNo })));
    expect(byId.outcome).toBe("unmatched");
    expect((await s.getOrder(theirs.tradeNo))!.status).toBe(1);
    expect((await s.settleReport(settleUnit(claim({ pid: 1002, orderId: theirs.tradeNo })))).outcome).toBe("matched");
  });

  test("settle: nothing to match is stored as unmatched with the reason", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const r = await s.settleReport(settleUnit(claim({ amount: 777 })));
    expect(r).toMatchObject({ outcome: "unmatched", reason: "no pending order matches amount 777, pay_type alipay", tradeNo: null, pay: null });
    expect((await s.listReports({ outcome: "unmatched" }))[0]!.id).toBe(r.reportId!);
  });

  test("insertReport: stores, dedupes by key among matched and unmatched only, lists newest first", async () => {
    const s = ctx.store;
    await merchant(s);
    const h = await s.insertReport(report({ kind: "heart", outcome: "accepted", amount: null }));
    const a = await s.insertReport(report({ dedupeKey: "d" }));
    const b = await s.insertReport(report({ dedupeKey: "d", pid: 1002 }));
    expect(a.duplicate).toBe(false);
    expect(b.duplicate).toBe(true);
    expect((await s.listReports({})).map((r) => r.id)).toEqual([b.id, a.id, h.id]);
    expect((await s.listReports({ outcome: "duplicate" }))[0]).toMatchObject({ id: b.id, reason: "duplicate of an earlier report", tradeNo: null });
    expect((await s.listReports({ pid: 1002 })).map((r) => r.id)).toEqual([b.id]);
    expect((await s.listReports({ limit: 1 })).map((r) => r.id)).toEqual([b.id]);
  });

  test("assignReport: an unmatched report pays the order and is marked matched, once", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const o = await create(s, { amount: 5000 });
    const settled = await s.settleReport(settleUnit(claim({ amount: 4999 })));
    const unit = {
      reportId: settled.reportId!, tradeNo: o.tradeNo,
      check: (r: Parameters<typeof assignProblem>[0], order: Parameters<typeof assignProblem>[1]) => assignProblem(r, order, POLICY.matchWindow),
      pay: () => payUnit(o.tradeNo, T0 + 30), note: () => because("assigned", { no: o.tradeNo, by: "alice", why: "账单", reported: 4999, payable: 5000 }),
    };
    const r = await s.assignReport(unit);
    expect(r.kind).toBe("assigned");
    if (r.kind !== "assigned") return;
    expect(r.order.status).toBe(2);
    const note = `assigned to ${o.tradeNo} by alice: 账单; reported 4999 cents, order payable 5000 cents`;
    expect(r.report).toMatchObject({ outcome: "matched", tradeNo: o.tradeNo, reason: note, reasonCode: "assigned" });
    expect(r.notificationId).not.toBeNull();
    expect((await s.listReports({}))[0]).toMatchObject({ outcome: "matched", tradeNo: o.tradeNo, reason: note, reasonCode: "assigned" });
    expect(JSON.parse((await s.listReports({}))[0]!.reasonArgs!)).toEqual({ no: o.tradeNo, by: "alice", why: "账单", reported: 4999, payable: 5000 });
    expect(await s.assignReport(unit)).toEqual({ kind: "refused", reason: `report ${settled.reportId} is matched; only an unmatched report can be assigned` });
    expect(await s.assignReport({ ...unit, reportId: 999_999 })).toEqual({ kind: "not_found", what: "report" });
    expect(await s.assignReport({ ...unit, tradeNo: "missing" })).toEqual({ kind: "not_found", what: "order" });
  });
}
