// Per-merchant delivery health (migration 023's row, kept by each attempt; the queue counted from
// the undelivered rows) and the bulk resend of one merchant's failing notifications.
import { expect, test } from "bun:test";
import type { NotificationAttempt, Store } from "../../src/core/store.ts";
import { account, type Ctx, merchant, T0 } from "./harness.ts";
import { paidOrders } from "./outbox.contract.ts";

const MS = T0 * 1000;
const fail = (at: number, error = "ECONNREFUSED"): NotificationAttempt => ({ attemptedAt: at, durationMs: 1, httpStatus: null, body: "", error, acknowledged: false });
const ok = (at: number): NotificationAttempt => ({ attemptedAt: at, durationMs: 1, httpStatus: 200, body: "success", error: "", acknowledged: true });

async function attempt(s: Store, tradeNo: string, a: NotificationAttempt, status: "pending" | "delivered" | "failed") {
  const n = (await s.getNotification(tradeNo))!;
  await s.recordNotificationAttempt(n.id, { attempt: a, status, nextAttemptAt: a.attemptedAt + 60_000 });
}

export function deliveryContract(ctx: Ctx): void {
  test("delivery health: a row per merchant; last success, failing since, last error, queue and given-up counts", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await merchant(s, 1003);
    await account(s);
    const a = await paidOrders(s, 4, 1001);
    const b = await paidOrders(s, 1, 1002);
    expect((await s.deliveryHealth()).map((d) => [d.pid, d.pending, d.lastSuccessAt])).toEqual([[1001, 4, null], [1002, 1, null], [1003, 0, null]]);
    await attempt(s, a[0]!, ok(MS + 10), "delivered");
    await attempt(s, a[1]!, fail(MS + 20, "HTTP 502"), "pending");
    await attempt(s, a[2]!, fail(MS + 30), "failed");
    await attempt(s, a[1]!, fail(MS + 40), "pending");
    await attempt(s, b[0]!, { ...fail(MS + 50, ""), httpStatus: 500 }, "pending");
    const [d1, d2, d3] = await s.deliveryHealth();
    expect(d1).toEqual({ pid: 1001, lastSuccessAt: MS + 10, failingSince: MS + 20, lastFailureAt: MS + 40, lastError: "ECONNREFUSED", delivered: 1, pending: 2, failing: 2, givenUp: 1 });
    expect(d2).toMatchObject({ pid: 1002, lastSuccessAt: null, failingSince: MS + 50, lastError: "HTTP 500", pending: 1, failing: 1 });
    expect(d3).toEqual({ pid: 1003, lastSuccessAt: null, failingSince: null, lastFailureAt: null, lastError: "", delivered: 0, pending: 0, failing: 0, givenUp: 0 });
    // A success ends "failing since" and counts; the failures it follows stay in the counts while undelivered.
    await attempt(s, a[3]!, ok(MS + 60), "delivered");
    expect(await s.deliveryHealth(1001)).toEqual([{ ...d1!, lastSuccessAt: MS + 60, failingSince: null, delivered: 2, pending: 1 }]);
    expect(await s.deliveryHealth(9999)).toEqual([]);
  });

  test("requeueFailing: one merchant's undelivered rows that failed, due now; new, delivered, leased and other merchants' rows stay", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await account(s);
    const a = await paidOrders(s, 5, 1001);
    const [b] = await paidOrders(s, 1, 1002);
    await attempt(s, a[0]!, fail(MS + 10), "failed");
    await attempt(s, a[1]!, fail(MS + 10), "pending");
    await attempt(s, a[2]!, ok(MS + 10), "delivered");
    await attempt(s, a[3]!, fail(MS + 10), "pending");
    await attempt(s, b!, fail(MS + 10), "failed");
    // a[3] is being sent right now (leased by a worker): left to that attempt.
    await s.requeueNotification(a[3]!, MS + 20);
    await s.recordNotificationAttempt((await s.getNotification(a[3]!))!.id, { attempt: fail(MS + 21), status: "pending", nextAttemptAt: MS + 22 });
    expect((await s.claimDueNotifications(MS + 22, 10, 600_000)).map((n) => n.tradeNo).sort()).toEqual([a[3]!, a[4]!].sort());
    expect(await s.requeueFailing(1001, MS + 100)).toBe(2);
    expect(await s.getNotification(a[0]!)).toMatchObject({ status: "pending", nextAttemptAt: MS + 100, attempts: 1 });
    expect(await s.getNotification(a[1]!)).toMatchObject({ status: "pending", nextAttemptAt: MS + 100 });
    expect(await s.getNotification(a[2]!)).toMatchObject({ status: "delivered" });
    expect(await s.getNotification(b!)).toMatchObject({ status: "failed" });
    expect(await s.requeueFailing(1002, MS + 100)).toBe(1);
    expect(await s.requeueFailing(4242, MS + 100)).toBe(0);
  });

  test("failureGroups: undelivered failures by merchant and last error, with counts, given up, first and last; delivered and older ones left out", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await account(s);
    const a = await paidOrders(s, 5, 1001);
    const [b] = await paidOrders(s, 1, 1002);
    await attempt(s, a[0]!, fail(MS + 10), "pending");
    await attempt(s, a[1]!, fail(MS + 20, "HTTP 502"), "pending");
    await attempt(s, a[1]!, fail(MS + 30), "failed"); // its last error counts
    await attempt(s, a[2]!, fail(MS + 40), "pending");
    await attempt(s, a[3]!, fail(MS + 5), "pending");
    await attempt(s, a[3]!, ok(MS + 50), "delivered"); // delivered: not a failure any more
    await attempt(s, b!, { ...fail(MS + 60, ""), httpStatus: 500 }, "pending");
    expect(await s.failureGroups({ sinceMs: 0, limit: 10 })).toEqual([
      { pid: 1002, error: "HTTP 500", count: 1, givenUp: 0, firstAt: MS + 60, lastAt: MS + 60 },
      { pid: 1001, error: "ECONNREFUSED", count: 3, givenUp: 1, firstAt: MS + 10, lastAt: MS + 40 },
    ]);
    expect(await s.failureGroups({ sinceMs: 0, limit: 1 })).toHaveLength(1);
    // Notifications created before `sinceMs` (paidOrders writes each merchant's at MS + 0, 1, ...) are left out.
    expect((await s.failureGroups({ sinceMs: MS + 2, limit: 10 })).map((g) => [g.pid, g.count])).toEqual([[1001, 1]]);
    // The dashboard's "failing": failed that often, or given up whatever the count (the alert's threshold).
    expect(await s.failureGroups({ sinceMs: 0, limit: 10, minAttempts: 2 })).toEqual([{ pid: 1001, error: "ECONNREFUSED", count: 1, givenUp: 1, firstAt: MS + 30, lastAt: MS + 30 }]);
    expect((await s.failureGroups({ sinceMs: 0, limit: 10, minAttempts: 5 })).map((g) => [g.pid, g.count, g.givenUp])).toEqual([[1001, 1, 1]]);
  });
}
