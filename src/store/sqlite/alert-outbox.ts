// The alert outbox on bun:sqlite: rows leased by a conditional update (two servers on one file
// never send the same attempt; a row of a process that died goes again when its lease runs out),
// each attempt stored with the row's next state in one transaction, and the history view.
import type { Database } from "bun:sqlite";
import type { AlertAttempt, AlertChannel, AlertHistoryRow, ClaimedAlert } from "../../core/alerts/store.ts";
import type { AlertMessage } from "../../core/alerts/types.ts";

type Row = Record<string, unknown>;

/** Rows to the port's types; the PostgreSQL adapter reads its identical columns with these. */
export const toClaimed = (r: Row): ClaimedAlert => ({
  id: Number(r.id), channelId: Number(r.channel_id), channelName: String(r.channel_name), channelType: String(r.channel_type),
  message: JSON.parse(String(r.message)) as AlertMessage, attempts: Number(r.attempts),
});

export function insertLeased(db: Database, c: AlertChannel, m: AlertMessage, nowMs: number, leaseMs: number): number {
  const row = db
    .query(
      `INSERT INTO alert_messages (channel_id, channel_name, channel_type, event, alert_key, title, message, next_attempt_at, claimed_until, created_at)
       VALUES ($channel, $name, $type, $event, $key, $title, $message, $now, $until, $now) RETURNING id`,
    )
    .get({ channel: c.id, name: c.name, type: c.type, event: m.event, key: m.key, title: m.title, message: JSON.stringify(m), now: nowMs, until: nowMs + leaseMs }) as Row;
  return Number(row.id);
}

/**
 * Reads due, unleased rows in due order (outside the write lock), at most `perChannel` of each
 * channel, keeps those `admit` takes (its channel has room in this process), and leases each with
 * a conditional update in one short transaction; a row another process leased in between is left
 * out. A hanging channel's backlog of due rows thus never stands in front of another channel's.
 */
export function claimDue(db: Database, nowMs: number, limit: number, leaseMs: number, fair?: { perChannel: number; admit(channelId: number): boolean }): ClaimedAlert[] {
  const candidates = db
    .query(
      `SELECT id, channel_id FROM (
         SELECT id, channel_id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY next_attempt_at, id) AS rn
         FROM alert_messages WHERE status = 'pending' AND next_attempt_at <= $now AND claimed_until <= $now)
       WHERE rn <= $per ORDER BY next_attempt_at, id LIMIT $scan`,
    )
    .all({ now: nowMs, per: fair?.perChannel ?? limit, scan: fair ? 10_000 : limit }) as { id: number; channel_id: number }[];
  const chosen: number[] = [];
  for (const c of candidates) {
    if (chosen.length >= limit) break;
    if (!fair || fair.admit(c.channel_id)) chosen.push(c.id);
  }
  if (chosen.length === 0) return [];
  const lease = db.query(
    `UPDATE alert_messages SET claimed_until = $until
     WHERE id = $id AND status = 'pending' AND next_attempt_at <= $now AND claimed_until <= $now RETURNING *`,
  );
  return db
    .transaction(() => chosen.map((id) => lease.get({ id, now: nowMs, until: nowMs + leaseMs }) as Row | null))
    .immediate()
    .filter((r): r is Row => r !== null)
    .map(toClaimed);
}

export function recordAttempt(db: Database, id: number, o: { attempt: AlertAttempt; status: "pending" | "sent" | "failed"; nextAttemptAt: number }): void {
  db.transaction(() => {
    const a = o.attempt;
    db.query(
      `INSERT INTO alert_attempts (message_id, attempted_at, duration_ms, http_status, answer, error, ok)
       VALUES ($id, $at, $dur, $status, $answer, $error, $ok)`,
    ).run({ id, at: a.attemptedAt, dur: a.durationMs, status: a.httpStatus, answer: a.answer, error: a.error, ok: a.ok ? 1 : 0 });
    db.query(
      `UPDATE alert_messages SET attempts = attempts + 1, status = $status, next_attempt_at = $next, claimed_until = 0,
         sent_at = CASE WHEN $status = 'sent' THEN $at ELSE sent_at END
       WHERE id = $id`,
    ).run({ id, status: o.status, next: o.nextAttemptAt, at: a.attemptedAt });
  }).immediate();
}

export function history(db: Database, limit: number): AlertHistoryRow[] {
  const rows = db
    .query(
      `SELECT m.*, a.attempted_at, a.duration_ms, a.http_status, a.answer, a.error, a.ok
       FROM (SELECT * FROM alert_messages ORDER BY id DESC LIMIT $limit) m
       LEFT JOIN alert_attempts a ON a.id = (SELECT MAX(id) FROM alert_attempts WHERE message_id = m.id)
       ORDER BY m.id DESC`,
    )
    .all({ limit }) as Row[];
  return rows.map(toHistoryRow);
}

export function toHistoryRow(r: Row): AlertHistoryRow {
  return {
    id: Number(r.id), channelName: String(r.channel_name), channelType: String(r.channel_type), event: String(r.event), key: String(r.alert_key), title: String(r.title),
    status: String(r.status) as AlertHistoryRow["status"], attempts: Number(r.attempts), createdAt: Number(r.created_at), sentAt: r.sent_at === null ? null : Number(r.sent_at),
    nextAttemptAt: Number(r.next_attempt_at),
    last: r.attempted_at === null ? null : { attemptedAt: Number(r.attempted_at), durationMs: Number(r.duration_ms), httpStatus: r.http_status === null ? null : Number(r.http_status), answer: String(r.answer), error: String(r.error), ok: Number(r.ok) === 1 },
  };
}
