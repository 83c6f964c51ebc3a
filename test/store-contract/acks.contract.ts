// Notification attempts recorded in batches: the attempts that finish in one turn of the event loop
// are one write transaction (SQLite's group commit, PostgreSQL's batch), each merchant's delivery
// row ends as one attempt after another would leave it, and one attempt that cannot be written fails
// alone.
import { expect, test } from "bun:test";
import type { AttemptOutcome, NotificationAttempt, Store } from "../../src/core/store.ts";
import { account, type Ctx, merchant, T0 } from "./harness.ts";
import { paidOrders } from "./outbox.contract.ts";

const MS = T0 * 1000;
const fail = (at: number, error = "ECONNREFUSED"): NotificationAttempt => ({ attemptedAt: at, durationMs: 1, httpStatus: null, body: "", error, acknowledged: false });
const ok = (at: number): NotificationAttempt => ({ attemptedAt: at, durationMs: 1, httpStatus: 200, body: "success", error: "", acknowledged: true });
const outcome = (a: NotificationAttempt): AttemptOutcome => ({ attempt: a, status: a.acknowledged ? "delivered" : "pending", nextAttemptAt: a.attemptedAt + 15_000 });

async function ids(s: Store, trades: string[]): Promise<number[]> {
  return Promise.all(trades.map(async (t) => (await s.getNotification(t))!.id));
}

export function acksContract(ctx: Ctx): void {
  test("attempts finished in one turn are one write transaction", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const n = await ids(s, await paidOrders(s, 5));
    await s.claimDueNotifications(MS + 100, 10, 60_000);
    const writes: number[] = [];
    const stop = s.stats.observeWrites((sec) => writes.push(sec));
    try {
      await Promise.all(n.map((id, i) => s.recordNotificationAttempt(id, outcome(i % 2 ? fail(MS + 200 + i) : ok(MS + 200 + i)))));
    } finally {
      stop();
    }
    expect(writes.length).toBe(1);
    const rows = await s.listNotifications({});
    expect(rows.map((r) => r.status).sort()).toEqual(["delivered", "delivered", "delivered", "pending", "pending"]);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    // Leases released: the two that failed are due at their retry time, not 60 s after the claim.
    expect((await s.claimDueNotifications(MS + 200 + 15_000 + 4, 10, 60_000)).length).toBe(2);
  });

  test("a batch leaves each merchant's delivery row as one attempt after another would", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await merchant(s, 1003);
    await account(s);
    const a = await ids(s, await paidOrders(s, 4, 1001));
    const b = await ids(s, await paidOrders(s, 3, 1002));
    const c = await ids(s, await paidOrders(s, 2, 1003));
    // Rows the batch starts from: 1001 failing since MS+5, 1002 succeeded at MS+6, 1003 none.
    await s.recordNotificationAttempt(a[0]!, outcome(fail(MS + 5, "HTTP 502")));
    await s.recordNotificationAttempt(b[0]!, outcome(ok(MS + 6)));
    // One turn: in order, 1001 ok, fail, fail; 1002 fail, ok; 1003 fail, fail.
    await Promise.all([
      s.recordNotificationAttempt(a[1]!, outcome(ok(MS + 10))),
      s.recordNotificationAttempt(b[1]!, outcome(fail(MS + 11, "timed out after 60000 ms"))),
      s.recordNotificationAttempt(a[2]!, outcome(fail(MS + 12, "ECONNRESET"))),
      s.recordNotificationAttempt(c[0]!, outcome(fail(MS + 13, "HTTP 500"))),
      s.recordNotificationAttempt(b[2]!, outcome(ok(MS + 14))),
      s.recordNotificationAttempt(a[3]!, outcome(fail(MS + 15, "ECONNREFUSED"))),
      s.recordNotificationAttempt(c[1]!, outcome({ ...fail(MS + 16, ""), httpStatus: 404 })),
    ]);
    const [d1, d2, d3] = await s.deliveryHealth();
    expect(d1).toMatchObject({ pid: 1001, lastSuccessAt: MS + 10, failingSince: MS + 12, lastFailureAt: MS + 15, lastError: "ECONNREFUSED", delivered: 1 });
    expect(d2).toMatchObject({ pid: 1002, lastSuccessAt: MS + 14, failingSince: null, lastFailureAt: MS + 11, lastError: "timed out after 60000 ms", delivered: 2 });
    expect(d3).toMatchObject({ pid: 1003, lastSuccessAt: null, failingSince: MS + 13, lastFailureAt: MS + 16, lastError: "HTTP 404", delivered: 0 });
  });

  test("an attempt that cannot be written fails alone: the others of its turn are stored", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const trades = await paidOrders(s, 2);
    const [x, y] = await ids(s, trades);
    const settled = await Promise.allSettled([
      s.recordNotificationAttempt(x!, outcome(ok(MS + 10))),
      s.recordNotificationAttempt(987_654_321, outcome(ok(MS + 11))), // no such notification
      s.recordNotificationAttempt(y!, outcome(fail(MS + 12))),
    ]);
    expect(settled.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await s.getNotification(trades[0]!)).toMatchObject({ status: "delivered", attempts: 1 });
    expect(await s.getNotification(trades[1]!)).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: MS + 12 + 15_000 });
    expect((await s.getNotification(trades[1]!))!.attempts_log).toHaveLength(1);
    expect((await s.deliveryHealth(1001))[0]).toMatchObject({ delivered: 1, failingSince: MS + 12 });
  });
}
