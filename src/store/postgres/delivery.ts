// Per-merchant delivery health and the bulk resend on PostgreSQL, as SQLite's (sqlite/delivery.ts):
// the merchant's row (migration 023) is kept by each attempt, the queue counted from the partial
// index of undelivered notifications.
import type { SQL } from "bun";
import type { AttemptOutcome, FailureGroup, MerchantDelivery } from "../../core/store.ts";
import { attemptError, toDelivery, toGroup } from "../delivery-rows.ts";

/** Inside recordAttempt's transaction: the merchant's row after this attempt. */
export async function noteAttempt(tx: SQL, id: number, o: AttemptOutcome): Promise<void> {
  const ok = o.status === "delivered";
  const at = o.attempt.attemptedAt;
  await tx`
    INSERT INTO merchant_delivery AS d (pid, last_success_at, failing_since, last_failure_at, last_error, delivered)
    SELECT o.pid, ${ok ? at : null}::bigint, ${ok ? null : at}::bigint, ${ok ? null : at}::bigint, ${ok ? "" : attemptError(o)}, ${ok ? 1 : 0}
    FROM notifications n JOIN orders o ON o.trade_no = n.trade_no WHERE n.id = ${id}
    ON CONFLICT (pid) DO UPDATE SET
      last_success_at = CASE WHEN ${ok} THEN GREATEST(COALESCE(d.last_success_at, 0), ${at}::bigint) ELSE d.last_success_at END,
      failing_since = CASE WHEN ${ok} THEN NULL ELSE COALESCE(d.failing_since, ${at}::bigint) END,
      last_failure_at = CASE WHEN ${ok} THEN d.last_failure_at ELSE ${at}::bigint END,
      last_error = CASE WHEN ${ok} THEN d.last_error ELSE ${attemptError(o)} END,
      delivered = d.delivered + ${ok ? 1 : 0}`;
}

export async function deliveryHealth(sql: SQL, pid?: number): Promise<MerchantDelivery[]> {
  const p = pid ?? null;
  const rows = await sql`
    SELECT m.pid, d.last_success_at, d.failing_since, d.last_failure_at, d.last_error, d.delivered, q.pending, q.failing, q.given_up
    FROM merchants m LEFT JOIN merchant_delivery d ON d.pid = m.pid
    LEFT JOIN (SELECT o.pid, COUNT(*) FILTER (WHERE n.status = 'pending') AS pending, COUNT(*) FILTER (WHERE n.attempts > 0) AS failing,
                      COUNT(*) FILTER (WHERE n.status = 'failed') AS given_up
               FROM notifications n JOIN orders o ON o.trade_no = n.trade_no
               WHERE n.status <> 'delivered' AND (${p}::bigint IS NULL OR o.pid = ${p}::bigint) GROUP BY o.pid) q ON q.pid = m.pid
    WHERE ${p}::bigint IS NULL OR m.pid = ${p}::bigint ORDER BY m.pid`;
  return rows.map(toDelivery);
}

/** Rows a worker holds right now (leased) are left to that attempt: resetting them could send twice. */
export async function requeueFailing(sql: SQL, pid: number, nowMs: number): Promise<number> {
  const r = await sql`
    UPDATE notifications SET status = 'pending', next_attempt_at = ${nowMs}, claimed_until = 0
    WHERE id IN (SELECT n.id FROM notifications n JOIN orders o ON o.trade_no = n.trade_no
                 WHERE n.status <> 'delivered' AND n.attempts > 0 AND n.claimed_until <= ${nowMs} AND o.pid = ${pid})`;
  return r.count;
}

export async function failureGroups(sql: SQL, o: { sinceMs: number; limit: number }): Promise<FailureGroup[]> {
  const rows = await sql`
    SELECT pid, error, COUNT(*) AS n, COUNT(*) FILTER (WHERE status = 'failed') AS given_up, MIN(at) AS first_at, MAX(at) AS last_at FROM (
      SELECT o.pid, n.status, a.attempted_at AS at, COALESCE(NULLIF(a.error, ''), 'HTTP ' || a.http_status, '') AS error
      FROM notifications n JOIN orders o ON o.trade_no = n.trade_no
      JOIN notification_attempts a ON a.id = (SELECT MAX(id) FROM notification_attempts WHERE notification_id = n.id)
      WHERE n.status <> 'delivered' AND n.attempts > 0 AND n.created_at >= ${o.sinceMs}) f
    GROUP BY pid, error ORDER BY last_at DESC, pid LIMIT ${o.limit}`;
  return rows.map(toGroup);
}
