// Store.browse (the operator's read side): the order search with every filter and keyset pages,
// the report search and an order's reports, the candidates a report could be assigned to, and the
// attention lists (unmatched money, failing notifications, late payments, failed creates).
import { expect, test } from "bun:test";
import type { OrderQuery } from "../../src/core/browse/store.ts";
import { account, create, type Ctx, merchant, payUnit, report, T0 } from "./harness.ts";

export function browseContract(ctx: Ctx): void {
  const browse = () => ctx.store.browse;
  const numbers = async (q: Partial<OrderQuery> = {}) => (await browse().searchOrders({ limit: 50, now: T0 + 10, ...q })).map((o) => o.tradeNo);

  // Unfiltered, the list walks 010's created_at index; by merchant or status, 030's (pid, created_at)
  // and (status, created_at). None holds trade_no, so the orders of one second are sorted apart.
  for (const filter of [{}, { pid: 1001 }, { status: 1 }, { pid: 1001, status: 1 }] as Partial<OrderQuery>[]) {
    test(`browse: orders newest first; keyset pages cover each once, also within one second (${JSON.stringify(filter)})`, async () => {
      const s = ctx.store;
      await merchant(s);
      await account(s);
      const made: string[] = [];
      for (let i = 0; i < 7; i++) made.push((await create(s, { amount: 1000 + i * 100 }, { now: T0 + Math.floor(i / 3) })).tradeNo);
      const all = await numbers(filter);
      expect([...all].sort()).toEqual([...made].sort());
      const byTime = (await browse().searchOrders({ limit: 50, now: T0 + 10, ...filter })).map((o) => [o.createdAt, o.tradeNo] as const);
      // Newest second first; within a second each adapter's own stable order (SQLite: the order
      // created last first, PostgreSQL: the number), which the pages below must follow.
      expect(byTime.map((x) => x[0])).toEqual([...byTime].map((x) => x[0]).sort((a, b) => b - a));
      const seen: string[] = [];
      let page = await browse().searchOrders({ limit: 2, now: T0 + 10, ...filter });
      while (page.length > 0) {
        seen.push(...page.map((o) => o.tradeNo));
        const last = page.at(-1)!;
        page = await browse().searchOrders({ limit: 2, now: T0 + 10, ...filter, after: { createdAt: last.createdAt, tradeNo: last.tradeNo } });
      }
      expect(seen).toEqual(all);
    });
  }

  test("browse: status as callers see it, merchant, pay type, account, dates and the three search arms narrow", async () => {
    const s = ctx.store;
    await merchant(s);
    await merchant(s, 1002);
    await account(s);
    const wx = await account(s, { payType: "wxpay" });
    const timedOut = await create(s, { amount: 1000, outTradeNo: "SHOP-77" }, { now: T0 - 1000 });
    const closed = await create(s, { amount: 1100 }, { now: T0 });
    await s.closeOrder(closed.tradeNo, T0);
    const pending = await create(s, { amount: 1200, payType: "wxpay" }, { now: T0 + 5 });
    expect(await numbers({ status: 1 })).toEqual([pending.tradeNo]);
    expect(await numbers({ status: 4 })).toEqual([timedOut.tradeNo]);
    expect(await numbers({ status: 3 })).toEqual([closed.tradeNo]);
    expect(await numbers({ payType: "wxpay" })).toEqual([pending.tradeNo]);
    expect(await numbers({ accountId: wx.id })).toEqual([pending.tradeNo]);
    expect(await numbers({ pid: 1002 })).toEqual([]);
    expect(await numbers({ from: T0, to: T0 + 5 })).toEqual([closed.tradeNo]);
    expect(await numbers({ search: { outTradeNo: "SHOP-77" } })).toEqual([timedOut.tradeNo]);
    expect(await numbers({ search: { tradeNo: closed.tradeNo } })).toEqual([closed.tradeNo]);
    expect(await numbers({ search: { tradeAmount: pending.tradeAmount!, outTradeNo: "SHOP-77" } })).toEqual([pending.tradeNo, timedOut.tradeNo]);
    expect(await numbers({ search: { tradeAmount: pending.tradeAmount! }, status: 2 })).toEqual([]);
  });

  test("browse: reports by id, by order (oldest first), searched newest first with filters and pages", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const o = await create(s);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await s.insertReport(report({ kind: i % 2 ? "message" : "amount", outcome: i < 2 ? "unmatched" : "rejected", tradeNo: i === 3 ? null : o.tradeNo, pid: i === 0 ? 1002 : 1001, raw: `r${i}` }));
      ids.push(r.id);
    }
    expect((await browse().getReport(ids[1]!))).toMatchObject({ id: ids[1], kind: "message", raw: "r1", tradeNo: o.tradeNo });
    expect(await browse().getReport(999_999)).toBeNull();
    expect((await browse().reportsForOrder(o.tradeNo, 10)).map((r) => r.id)).toEqual(ids.slice(0, 3));
    expect((await browse().reportsForOrder(o.tradeNo, 2)).map((r) => r.id)).toEqual(ids.slice(0, 2));
    expect((await browse().searchReports({ limit: 10 })).map((r) => r.id)).toEqual([...ids].reverse());
    expect((await browse().searchReports({ limit: 10, outcome: "unmatched", pid: 1001 })).map((r) => r.id)).toEqual([ids[1]!]);
    expect((await browse().searchReports({ limit: 10, kind: "amount" })).map((r) => r.id)).toEqual([ids[2]!, ids[0]!]);
    expect((await browse().searchReports({ limit: 2, beforeId: ids[3] })).map((r) => r.id)).toEqual([ids[2]!, ids[1]!]);
  });

  test("browse: assign candidates are unpaid orders payable at the time, its pay type first, then the nearest amount", async () => {
    const s = ctx.store;
    await merchant(s);
    await merchant(s, 1002);
    await account(s);
    await account(s, { payType: "wxpay" });
    const near = await create(s, { amount: 1000 }, { now: T0 });
    const far = await create(s, { amount: 2000 }, { now: T0 });
    const wx = await create(s, { amount: 1000, payType: "wxpay" }, { now: T0 });
    const paid = await create(s, { amount: 1010 }, { now: T0 });
    await s.payOrder(payUnit(paid.tradeNo, T0 + 1));
    const after = await create(s, { amount: 1000 }, { now: T0 + 200 }); // created after the money arrived
    await create(s, { pid: 1002, amount: 1000 }, { now: T0 });
    const q = { pid: 1001, at: T0 + 100, window: 600, maxLifetime: 86400, amount: 1005, payType: "alipay", limit: 10 };
    expect((await browse().assignCandidates(q)).map((o) => o.tradeNo)).toEqual([near.tradeNo, far.tradeNo, wx.tradeNo]);
    expect((await browse().assignCandidates({ ...q, payType: "wxpay", limit: 2 })).map((o) => o.tradeNo)).toEqual([wx.tradeNo, near.tradeNo]);
    expect((await browse().assignCandidates({ ...q, pid: undefined })).map((o) => o.pid)).toEqual([1001, 1002, 1001, 1001]);
    // Later, the first orders ended more than the window ago; only the later one was still payable.
    expect((await browse().assignCandidates({ ...q, at: T0 + 900 + 601 })).map((o) => o.tradeNo)).toEqual([after.tradeNo]);
  });

  test("browse: attention lists unmatched money, failing notifications with their last error, late payments, failed creates", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s, { max: 5000 });
    await s.insertReport(report({ outcome: "unmatched", kind: "amount", createdAt: T0 + 1 }));
    await s.insertReport(report({ outcome: "unmatched", kind: "operator", createdAt: T0 + 2 }));
    await s.insertReport(report({ outcome: "unmatched", kind: "heart", createdAt: T0 + 3 }));
    const late = await create(s, { amount: 1000 }, { now: T0, ttl: 60 });
    await s.payOrder(payUnit(late.tradeNo, T0 + 120));
    const onTime = await create(s, { amount: 2000 }, { now: T0 });
    await s.payOrder(payUnit(onTime.tradeNo, T0 + 5));
    const failed = await create(s, { amount: 9000 }, { now: T0 + 1 });
    expect(failed.status).toBe(5);
    const attempt = { attemptedAt: (T0 + 130) * 1000, durationMs: 5, httpStatus: 500, body: "", error: "", acknowledged: false };
    const lateNote = (await s.getNotification(late.tradeNo))!;
    await s.recordNotificationAttempt(lateNote.id, { attempt, status: "pending", nextAttemptAt: (T0 + 200) * 1000 });
    await s.recordNotificationAttempt(lateNote.id, { attempt: { ...attempt, httpStatus: null, error: "timeout" }, status: "pending", nextAttemptAt: (T0 + 300) * 1000 });
    const onTimeNote = (await s.getNotification(onTime.tradeNo))!;
    await s.recordNotificationAttempt(onTimeNote.id, { attempt, status: "pending", nextAttemptAt: (T0 + 200) * 1000 });
    const a = await browse().attention({ since: T0, limit: 10, minAttempts: 2 });
    expect(a.unmatchedReports.map((r) => r.kind)).toEqual(["amount"]);
    expect(a.failingNotifications.map((n) => [n.tradeNo, n.pid, n.lastError])).toEqual([[late.tradeNo, 1001, "timeout"]]);
    expect((await browse().attention({ since: T0, limit: 10, minAttempts: 1 })).failingNotifications.map((n) => n.lastError).sort()).toEqual(["HTTP 500", "timeout"]);
    expect(a.latePayments.map((o) => o.tradeNo)).toEqual([late.tradeNo]);
    expect(a.creationFailures.map((o) => o.tradeNo)).toEqual([failed.tradeNo]);
    const later = await browse().attention({ since: T0 + 10_000, limit: 10, minAttempts: 1 });
    expect([later.unmatchedReports, later.notPayments, later.failingNotifications, later.latePayments, later.creationFailures].flat()).toEqual([]);
  });

  test("browse: attention keeps money apart from messages with no amount; late is money reported after expiry, never an operator's payment", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s, { max: 5000 });
    await s.insertReport(report({ outcome: "unmatched", kind: "amount", amount: 20000, createdAt: T0 + 1 }));
    for (let i = 0; i < 3; i++) await s.insertReport(report({ outcome: "unmatched", kind: "message", amount: null, createdAt: T0 + 2 + i }));
    // Late: the matched report came 60 s after the expiry. Confirmed by hand: an operator's report.
    // Assigned: the money was reported before the expiry, the operator paid it long after.
    const late = await create(s, { amount: 1000 }, { now: T0, ttl: 60 });
    const confirmed = await create(s, { amount: 1100 }, { now: T0, ttl: 60 });
    const assigned = await create(s, { amount: 1200 }, { now: T0, ttl: 60 });
    await s.insertReport(report({ outcome: "matched", kind: "amount", tradeNo: late.tradeNo, createdAt: T0 + 120 }));
    await s.insertReport(report({ outcome: "matched", kind: "operator", tradeNo: confirmed.tradeNo, createdAt: T0 + 130 }));
    await s.insertReport(report({ outcome: "matched", kind: "message", tradeNo: assigned.tradeNo, createdAt: T0 + 30 }));
    for (const o of [late, confirmed, assigned]) expect((await s.payOrder(payUnit(o.tradeNo, T0 + 120, 10_000))).kind).toBe("paid");
    const a = await browse().attention({ since: T0, limit: 2, minAttempts: 2 });
    expect(a.unmatchedReports.map((r) => r.amount)).toEqual([20000]);
    expect(a.notPayments.map((r) => [r.kind, r.amount, r.createdAt])).toEqual([["message", null, T0 + 4], ["message", null, T0 + 3]]);
    expect(a.latePayments.map((o) => [o.tradeNo, o.moneyAt])).toEqual([[late.tradeNo, T0 + 120]]);
    const money = async (m: boolean) => (await browse().searchReports({ outcome: "unmatched", money: m, limit: 10 })).map((r) => r.amount);
    expect(await money(true)).toEqual([20000]);
    expect(await money(false)).toEqual([null, null, null]);
  });
}
