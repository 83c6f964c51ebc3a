// The notification outbox: leases (claimed once, free again when the lease runs out), the fair
// filter, attempts, requeue and the reads the worker and the CLI use.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store.ts";
import { account, create, type Ctx, merchant, payUnit, T0 } from "./harness.ts";

const MS = T0 * 1000;

/** `n` paid orders of merchant `pid`, their notifications due at MS + i. */
export async function paidOrders(s: Store, n: number, pid = 1001): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = await create(s, { pid, amount: 100_000 + i });
    await s.payOrder({ ...payUnit(o.tradeNo, T0), nowMs: MS + i });
    out.push(o.tradeNo);
  }
  return out;
}

export function outboxContract(ctx: Ctx): void {
  test("claim: due rows in due order, up to the limit, each leased until it runs out", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const trades = await paidOrders(s, 5);
    const first = await s.claimDueNotifications(MS + 10, 3, 60_000);
    expect(first.map((n) => n.tradeNo)).toEqual(trades.slice(0, 3));
    expect((await s.claimDueNotifications(MS + 10, 10, 60_000)).map((n) => n.tradeNo)).toEqual(trades.slice(3));
    expect(await s.claimDueNotifications(MS + 20, 10, 60_000)).toEqual([]);
    // The claimer died without recording an attempt: its lease runs out and the rows are due again.
    expect((await s.claimDueNotifications(MS + 10 + 60_000, 10, 60_000)).length).toBe(5);
  });

  test("a payment's row taken as it is written: leased by the payment, no claim returns it until the lease runs out", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const [free] = await paidOrders(s, 1);
    const o = await create(s, { amount: 200_000 });
    const asked: { pid: number; url: string }[] = [];
    const pay = await s.payOrder({ ...payUnit(o.tradeNo, T0), nowMs: MS, lease: (row) => (asked.push(row), MS + 60_000) });
    expect(asked).toEqual([{ pid: 1001, url: "http://127.0.0.1:9/notify" }]);
    expect(pay.kind === "paid" && pay.notificationId).toBeGreaterThan(0);
    expect(await s.nextNotificationDue()).toBe(MS);
    expect((await s.claimDueNotifications(MS + 10, 10, 600_000)).map((n) => n.tradeNo)).toEqual([free!]);
    expect(await s.claimDueNotifications(MS + 59_999, 10, 1000)).toEqual([]);
    // The process that took it died before sending: the row is due again once the lease runs out.
    expect((await s.claimDueNotifications(MS + 60_000, 10, 1000)).map((n) => n.tradeNo)).toEqual([o.tradeNo]);
    // Not taken (null): written due, as without the question.
    const p = await create(s, { amount: 300_000 });
    await s.payOrder({ ...payUnit(p.tradeNo, T0), nowMs: MS, lease: () => null });
    expect((await s.claimDueNotifications(MS + 10, 10, 1000)).map((n) => n.tradeNo)).toEqual([p.tradeNo]);
  });

  test("claim: a row not due yet is left alone", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    await paidOrders(s, 2);
    expect((await s.claimDueNotifications(MS, 10, 1000)).length).toBe(1);
    expect(await s.nextNotificationDue()).toBe(MS + 1);
  });

  test("fair claim: only admitted rows are leased, at most perMerchant per merchant are read; refused rows stay due", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await account(s);
    const a = await paidOrders(s, 4, 1001);
    const b = await paidOrders(s, 2, 1002);
    const seen: number[] = [];
    const fair = { perMerchant: 2, admit: (row: { id: number; pid: number }) => (seen.push(row.pid), row.pid === 1002 || seen.filter((p) => p === 1001).length === 1) };
    const got = await s.claimDueNotifications(MS + 100, 10, 60_000, fair);
    expect(seen.filter((p) => p === 1001).length).toBe(2); // the 3rd and 4th of 1001 were never read
    expect(got.map((n) => n.tradeNo).sort()).toEqual([a[0]!, ...b].sort());
    const rest = await s.claimDueNotifications(MS + 100, 10, 60_000);
    expect(rest.map((n) => n.tradeNo)).toEqual(a.slice(1));
    expect(rest.every((n) => n.attempts === 0)).toBe(true);
  });

  test("attempts: a failure schedules the next, a delivery ends it; the log keeps each attempt", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const [t] = await paidOrders(s, 1);
    const [n] = await s.claimDueNotifications(MS + 1, 1, 60_000);
    const attempt = { attemptedAt: MS + 5, durationMs: 12, httpStatus: 500, body: "oops", error: "", acknowledged: false };
    await s.recordNotificationAttempt(n!.id, { attempt, status: "pending", nextAttemptAt: MS + 15_000 });
    expect(await s.getNotification(t!)).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: MS + 15_000, deliveredAt: null });
    expect(await s.nextNotificationDue()).toBe(MS + 15_000); // the lease was given back
    await s.recordNotificationAttempt(n!.id, { attempt: { ...attempt, attemptedAt: MS + 15_001, httpStatus: 200, body: "success", acknowledged: true }, status: "delivered", nextAttemptAt: MS + 15_001 });
    const done = await s.getNotification(t!);
    expect(done).toMatchObject({ status: "delivered", attempts: 2, deliveredAt: MS + 15_001 });
    expect(done!.attempts_log).toEqual([attempt, { ...attempt, attemptedAt: MS + 15_001, httpStatus: 200, body: "success", acknowledged: true }]);
    expect(await s.nextNotificationDue()).toBeNull();
    expect((await s.listNotifications({ status: "delivered" })).map((x) => x.tradeNo)).toEqual([t!]);
    expect(await s.listNotifications({ status: "pending" })).toEqual([]);
  });

  test("requeue: a failed notification is due again now; an unknown trade_no is not", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const [t] = await paidOrders(s, 1);
    const [n] = await s.claimDueNotifications(MS + 1, 1, 60_000);
    const attempt = { attemptedAt: MS + 2, durationMs: 1, httpStatus: null, body: "", error: "refused", acknowledged: false };
    await s.recordNotificationAttempt(n!.id, { attempt, status: "failed", nextAttemptAt: MS + 2 });
    expect(await s.claimDueNotifications(MS + 10, 10, 1000)).toEqual([]);
    expect(await s.requeueNotification(t!, MS + 100)).toBe(true);
    expect(await s.getNotification(t!)).toMatchObject({ status: "pending", nextAttemptAt: MS + 100 });
    expect((await s.claimDueNotifications(MS + 100, 10, 1000)).length).toBe(1);
    expect(await s.requeueNotification("missing", MS)).toBe(false);
  });

  test("listNotifications: newest first, with a limit", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const trades = await paidOrders(s, 3);
    expect((await s.listNotifications({})).map((n) => n.tradeNo)).toEqual([...trades].reverse());
    expect((await s.listNotifications({ limit: 2 })).length).toBe(2);
  });
}
