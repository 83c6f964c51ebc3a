// The alert outbox on PostgreSQL, shared by every instance's alert loop. A claim is a lease
// (claimed_until) written by the statement that picks the rows, FOR UPDATE SKIP LOCKED: two
// instances never lease one row (a row another claim holds is skipped, one it leased and committed
// no longer matches), so each message is sent once; a crashed instance's lease runs out and the row
// is due again for whoever claims next. Each attempt is stored with the row's next state in one
// transaction.
import type { SQL } from "bun";
import type { AlertAttempt, AlertChannel, AlertHistoryRow, ClaimedAlert } from "../../core/alerts/store.ts";
import type { AlertMessage } from "../../core/alerts/types.ts";
import { toClaimed, toHistoryRow } from "../sqlite/alert-outbox.ts";
import { unit } from "./tx.ts";

type Row = Record<string, unknown>;

const byDue = (a: Row, b: Row) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || Number(a.id) - Number(b.id);

export async function insertLeased(sql: SQL, c: AlertChannel, m: AlertMessage, nowMs: number, leaseMs: number): Promise<number> {
  const [row] = (await sql`
    INSERT INTO alert_messages (channel_id, channel_name, channel_type, event, alert_key, title, message, next_attempt_at, claimed_until, created_at)
    VALUES (${c.id}, ${c.name}, ${c.type}, ${m.event}, ${m.key}, ${m.title}, ${JSON.stringify(m)}, ${nowMs}, ${nowMs + leaseMs}, ${nowMs}) RETURNING id`) as Row[];
  return Number(row!.id);
}

/**
 * Without `fair`: the first `limit` due, unleased rows. With it: at most `perChannel` due rows of
 * each channel are read (a hanging channel's backlog never stands in front of another channel's),
 * `admit` decides, and only the admitted rows are leased; one another instance leased meanwhile is
 * left out (the caller gives its slot back).
 */
export async function claimDue(sql: SQL, nowMs: number, limit: number, leaseMs: number, fair?: { perChannel: number; admit(channelId: number): boolean }): Promise<ClaimedAlert[]> {
  const until = nowMs + leaseMs;
  if (!fair) {
    const rows = (await sql`
      UPDATE alert_messages SET claimed_until = ${until}
      WHERE id IN (SELECT id FROM alert_messages WHERE status = 'pending' AND next_attempt_at <= ${nowMs} AND claimed_until <= ${nowMs}
                   ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING *`) as Row[];
    return rows.sort(byDue).map(toClaimed);
  }
  const candidates = (await sql`
    SELECT id, channel_id FROM (
      SELECT id, channel_id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY next_attempt_at, id) AS rn
      FROM alert_messages WHERE status = 'pending' AND next_attempt_at <= ${nowMs} AND claimed_until <= ${nowMs}) due
    WHERE rn <= ${fair.perChannel} ORDER BY next_attempt_at, id LIMIT 10000`) as Row[];
  const chosen: number[] = [];
  for (const c of candidates) {
    if (chosen.length >= limit) break;
    if (fair.admit(Number(c.channel_id))) chosen.push(Number(c.id));
  }
  if (chosen.length === 0) return [];
  const rows = (await sql`
    UPDATE alert_messages SET claimed_until = ${until}
    WHERE id IN (SELECT id FROM alert_messages WHERE id = ANY(${chosen}::bigint[])
                   AND status = 'pending' AND next_attempt_at <= ${nowMs} AND claimed_until <= ${nowMs} FOR UPDATE SKIP LOCKED)
    RETURNING *`) as Row[];
  return rows.sort(byDue).map(toClaimed);
}

export function recordAttempt(sql: SQL, id: number, o: { attempt: AlertAttempt; status: "pending" | "sent" | "failed"; nextAttemptAt: number }): Promise<void> {
  const a = o.attempt;
  return unit(sql, async (tx) => {
    await tx`
      INSERT INTO alert_attempts (message_id, attempted_at, duration_ms, http_status, answer, error, ok)
      VALUES (${id}, ${a.attemptedAt}, ${a.durationMs}, ${a.httpStatus}, ${a.answer}, ${a.error}, ${a.ok ? 1 : 0})`;
    await tx`
      UPDATE alert_messages SET attempts = attempts + 1, status = ${o.status}, next_attempt_at = ${o.nextAttemptAt}, claimed_until = 0,
        sent_at = CASE WHEN ${o.status}::text = 'sent' THEN ${a.attemptedAt}::bigint ELSE sent_at END
      WHERE id = ${id}`;
  });
}

export async function history(sql: SQL, limit: number): Promise<AlertHistoryRow[]> {
  const rows = (await sql`
    SELECT m.*, a.attempted_at, a.duration_ms, a.http_status, a.answer, a.error, a.ok
    FROM (SELECT * FROM alert_messages ORDER BY id DESC LIMIT ${limit}) m
    LEFT JOIN LATERAL (SELECT * FROM alert_attempts WHERE message_id = m.id ORDER BY id DESC LIMIT 1) a ON true
    ORDER BY m.id DESC`) as Row[];
  return rows.map(toHistoryRow);
}
