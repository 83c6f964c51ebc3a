// Per-merchant delivery health and the bulk resend (core/notify/health.ts) on SQLite. The per-merchant
// row (migration 023) is kept by each recorded attempt; the queue is counted from the small partial
// index of undelivered notifications (014), so neither read touches the delivered rows.
import type { Database } from "bun:sqlite";
import type { AttemptOutcome, FailureGroup, MerchantDelivery } from "../../core/store.ts";
import { attemptError, toDelivery, toGroup } from "../delivery-rows.ts";
import { prepared } from "./statement.ts";

type Row = Record<string, number | string | null>;

// Held once per database (statement.ts), as recordAttempt's own statements. The merchant is the
// attempt's when deliverOne read it (AttemptOutcome.pid), else its order's: the lookup through
// the outbox row and the order took 12.6 µs an attempt, the row by pid under 1
// (docs/benchmarks.md, the 2026-11-29 20:50 run).
const MOVE = `ON CONFLICT (pid) DO UPDATE SET
         last_success_at = CASE WHEN $ok THEN MAX(COALESCE(last_success_at, 0), $at) ELSE last_success_at END,
         failing_since = CASE WHEN $ok THEN NULL ELSE COALESCE(failing_since, $at) END,
         last_failure_at = CASE WHEN $ok THEN last_failure_at ELSE $at END,
         last_error = CASE WHEN $ok THEN last_error ELSE $err END,
         delivered = delivered + $ok`;
const FIRST = "CASE WHEN $ok THEN $at END, CASE WHEN $ok THEN NULL ELSE $at END, CASE WHEN $ok THEN NULL ELSE $at END, CASE WHEN $ok THEN '' ELSE $err END, $ok";
const COLUMNS = "merchant_delivery (pid, last_success_at, failing_since, last_failure_at, last_error, delivered)";
const NOTE_BY_PID = prepared(`INSERT INTO ${COLUMNS} VALUES ($pid, ${FIRST}) ${MOVE}`);
const NOTE = prepared(
  `INSERT INTO ${COLUMNS} SELECT o.pid, ${FIRST} FROM notifications n JOIN orders o ON o.trade_no = n.trade_no WHERE n.id = $id ${MOVE}`,
);

/** Inside recordAttempt's transaction: the merchant's row after this attempt. */
export function noteAttempt(db: Database, id: number, o: AttemptOutcome): void {
  const ok = o.status === "delivered" ? 1 : 0;
  const bind = { ok, at: o.attempt.attemptedAt, err: attemptError(o) };
  if (o.pid === undefined) NOTE(db).run({ id, ...bind });
  else NOTE_BY_PID(db).run({ pid: o.pid, ...bind });
}

export function deliveryHealth(db: Database, pid?: number): MerchantDelivery[] {
  const rows = db
    .query(
      `SELECT m.pid, d.last_success_at, d.failing_since, d.last_failure_at, d.last_error, d.delivered, q.pending, q.failing, q.given_up
       FROM merchants m LEFT JOIN merchant_delivery d ON d.pid = m.pid
       LEFT JOIN (SELECT n.pid, SUM(n.status = 'pending') AS pending, SUM(n.attempts > 0) AS failing, SUM(n.status = 'failed') AS given_up
                  FROM notifications n INDEXED BY notifications_undelivered
                  WHERE n.status <> 'delivered' AND ($pid IS NULL OR n.pid = $pid) GROUP BY n.pid) q ON q.pid = m.pid
       WHERE $pid IS NULL OR m.pid = $pid ORDER BY m.pid`,
    )
    .all({ pid: pid ?? null }) as Row[];
  return rows.map(toDelivery);
}

/** Rows a worker holds right now (leased) are left to that attempt: resetting them could send twice. */
export function requeueFailing(db: Database, pid: number, nowMs: number): number {
  return db
    .query(
      `UPDATE notifications SET status = 'pending', next_attempt_at = $now, claimed_until = 0
       WHERE id IN (SELECT n.id FROM notifications n INDEXED BY notifications_undelivered
                    WHERE n.status <> 'delivered' AND n.attempts > 0 AND n.claimed_until <= $now AND n.pid = $pid)`,
    )
    .run({ pid, now: nowMs }).changes;
}

/** Each failing notification's last attempt (by the attempts' own index), grouped; walks only the undelivered rows. */
export function failureGroups(db: Database, o: { sinceMs: number; limit: number; minAttempts?: number }): FailureGroup[] {
  const rows = db
    .query(
      `SELECT pid, error, COUNT(*) AS n, SUM(status = 'failed') AS given_up, MIN(at) AS first_at, MAX(at) AS last_at FROM (
         SELECT n.pid, n.status, a.attempted_at AS at, COALESCE(NULLIF(a.error, ''), 'HTTP ' || a.http_status, '') AS error
         FROM notifications n INDEXED BY notifications_undelivered
         JOIN notification_attempts a ON a.id = (SELECT MAX(id) FROM notification_attempts WHERE notification_id = n.id)
         WHERE n.status <> 'delivered' AND n.attempts > 0 AND n.created_at >= $since AND (n.attempts >= $min OR n.status = 'failed'))
       GROUP BY pid, error ORDER BY last_at DESC, pid LIMIT $limit`,
    )
    .all({ since: o.sinceMs, limit: o.limit, min: o.minAttempts ?? 1 }) as Row[];
  return rows.map(toGroup);
}
