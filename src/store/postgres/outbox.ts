// The notification outbox on PostgreSQL. Every instance's worker claims due rows; a claim is a
// lease (claimed_until) written by the statement that picks the rows, FOR UPDATE SKIP LOCKED, so
// two instances never claim one row and never wait on each other's picks. A crashed instance's
// leases simply run out and the rows are due again for whoever claims next.
import type { SQL } from "bun";
import type { ClaimFilter, Notification, NotificationAttempt, NotificationFilter } from "../../core/store.ts";
import { toAttempt, toNotification } from "../rows.ts";

type Row = Record<string, unknown>;

const byDue = (a: Notification, b: Notification) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id;

export async function claimDue(sql: SQL, nowMs: number, limit: number, leaseMs: number, fair?: ClaimFilter): Promise<Notification[]> {
  if (fair) return claimFair(sql, nowMs, limit, leaseMs, fair);
  const rows = await sql`
    UPDATE notifications SET claimed_until = ${nowMs + leaseMs}
    WHERE id IN (SELECT id FROM notifications
                 WHERE status = 'pending' AND next_attempt_at <= ${nowMs} AND claimed_until <= ${nowMs}
                 ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING *`;
  return rows.map(toNotification).sort(byDue);
}

/**
 * The worker's fair-share rule (notify/fairness.ts) picks among the due, unleased rows, at most
 * `perMerchant` per merchant; only the admitted rows are leased, each by a conditional update, so a
 * row another instance leased in between is left out. Refused rows stay exactly as they were. The
 * read seeks each merchant with pending rows on the pending rows' index (migration 037) and takes at
 * most its share, so a pass costs the same whatever one merchant's backlog.
 */
async function claimFair(sql: SQL, nowMs: number, limit: number, leaseMs: number, fair: ClaimFilter): Promise<Notification[]> {
  const candidates = (await sql`
    WITH RECURSIVE m AS (
      (SELECT pid FROM notifications WHERE status = 'pending' AND pid IS NOT NULL ORDER BY pid LIMIT 1)
      UNION ALL
      SELECT (SELECT n.pid FROM notifications n WHERE n.status = 'pending' AND n.pid > m.pid ORDER BY n.pid LIMIT 1)
      FROM m WHERE m.pid IS NOT NULL)
    SELECT d.id, d.url, d.pid FROM m CROSS JOIN LATERAL (
      SELECT n.id, n.url, n.pid, n.next_attempt_at FROM notifications n
      WHERE n.status = 'pending' AND n.pid = m.pid AND n.next_attempt_at <= ${nowMs} AND n.claimed_until <= ${nowMs}
      ORDER BY n.next_attempt_at, n.id LIMIT ${fair.perMerchant}) d
    ORDER BY d.next_attempt_at, d.id`) as Row[];
  const admitted: number[] = [];
  for (const c of candidates) {
    if (admitted.length >= limit) break;
    const row = { id: Number(c.id), url: String(c.url), pid: Number(c.pid) };
    if (fair.admit(row)) admitted.push(row.id);
  }
  if (admitted.length === 0) return [];
  const rows = await sql`
    UPDATE notifications SET claimed_until = ${nowMs + leaseMs}
    WHERE id = ANY(${admitted}::bigint[]) AND status = 'pending' AND next_attempt_at <= ${nowMs} AND claimed_until <= ${nowMs}
    RETURNING *`;
  return rows.map(toNotification).sort(byDue);
}

export async function requeue(sql: SQL, tradeNo: string, nowMs: number): Promise<boolean> {
  const r = await sql`UPDATE notifications SET status = 'pending', next_attempt_at = ${nowMs}, claimed_until = 0 WHERE trade_no = ${tradeNo}`;
  return r.count === 1;
}

export async function getNotification(sql: SQL, tradeNo: string): Promise<(Notification & { attempts_log: NotificationAttempt[] }) | null> {
  const rows = await sql`SELECT * FROM notifications WHERE trade_no = ${tradeNo}`;
  if (!rows.length) return null;
  const n = toNotification(rows[0]);
  const attempts = (await sql`SELECT * FROM notification_attempts WHERE notification_id = ${n.id} ORDER BY id`).map(toAttempt);
  return { ...n, attempts_log: attempts };
}

export async function listNotifications(sql: SQL, f: NotificationFilter): Promise<Notification[]> {
  const rows = await sql`
    SELECT * FROM notifications n WHERE (${f.status ?? null}::text IS NULL OR n.status = ${f.status ?? null}::text)
      AND (${f.fromMs ?? null}::bigint IS NULL OR n.created_at >= ${f.fromMs ?? null}::bigint)
      AND (${f.toMs ?? null}::bigint IS NULL OR n.created_at < ${f.toMs ?? null}::bigint)
      AND (${f.pid ?? null}::bigint IS NULL OR n.pid = ${f.pid ?? null}::bigint)
    ORDER BY n.id DESC LIMIT ${f.limit ?? 100}`;
  return rows.map(toNotification);
}

export async function nextDue(sql: SQL): Promise<number | null> {
  const [row] = await sql`SELECT MIN(GREATEST(next_attempt_at, claimed_until)) AS due FROM notifications WHERE status = 'pending'`;
  return row.due === null ? null : Number(row.due);
}
