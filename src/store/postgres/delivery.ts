// Per-merchant delivery health and the bulk resend on PostgreSQL, as SQLite's (sqlite/delivery.ts):
// the merchant's row (migration 023) is kept by each batch of attempts (acks.ts), the queue counted
// from the partial index of undelivered notifications.
import type { SQL } from "bun";
import type { FailureGroup, MerchantDelivery } from "../../core/store.ts";
import { toDelivery, toGroup } from "../delivery-rows.ts";

export async function deliveryHealth(sql: SQL, pid?: number): Promise<MerchantDelivery[]> {
  const p = pid ?? null;
  const rows = await sql`
    SELECT m.pid, d.last_success_at, d.failing_since, d.last_failure_at, d.last_error, d.delivered, q.pending, q.failing, q.given_up
    FROM merchants m LEFT JOIN merchant_delivery d ON d.pid = m.pid
    LEFT JOIN (SELECT n.pid, COUNT(*) FILTER (WHERE n.status = 'pending') AS pending, COUNT(*) FILTER (WHERE n.attempts > 0) AS failing,
                      COUNT(*) FILTER (WHERE n.status = 'failed') AS given_up
               FROM notifications n
               WHERE n.status <> 'delivered' AND (${p}::bigint IS NULL OR n.pid = ${p}::bigint) GROUP BY n.pid) q ON q.pid = m.pid
    WHERE ${p}::bigint IS NULL OR m.pid = ${p}::bigint ORDER BY m.pid`;
  return rows.map(toDelivery);
}

/** Rows a worker holds right now (leased) are left to that attempt: resetting them could send twice. */
export async function requeueFailing(sql: SQL, pid: number, nowMs: number): Promise<number> {
  const r = await sql`
    UPDATE notifications SET status = 'pending', next_attempt_at = ${nowMs}, claimed_until = 0
    WHERE id IN (SELECT n.id FROM notifications n
                 WHERE n.status <> 'delivered' AND n.attempts > 0 AND n.claimed_until <= ${nowMs} AND n.pid = ${pid})`;
  return r.count;
}

export async function failureGroups(sql: SQL, o: { sinceMs: number; limit: number; minAttempts?: number }): Promise<FailureGroup[]> {
  const rows = await sql`
    SELECT pid, error, COUNT(*) AS n, COUNT(*) FILTER (WHERE status = 'failed') AS given_up, MIN(at) AS first_at, MAX(at) AS last_at FROM (
      SELECT n.pid, n.status, a.attempted_at AS at, COALESCE(NULLIF(a.error, ''), 'HTTP ' || a.http_status, '') AS error
      FROM notifications n
      JOIN notification_attempts a ON a.id = (SELECT MAX(id) FROM notification_attempts WHERE notification_id = n.id)
      WHERE n.status <> 'delivered' AND n.attempts > 0 AND n.created_at >= ${o.sinceMs}
        AND (n.attempts >= ${o.minAttempts ?? 1} OR n.status = 'failed')) f
    GROUP BY pid, error ORDER BY last_at DESC, pid LIMIT ${o.limit}`;
  return rows.map(toGroup);
}
