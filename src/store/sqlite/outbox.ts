import type { Database } from "bun:sqlite";
import type { AttemptOutcome, ClaimFilter, Notification, NotificationAttempt, NotificationFilter } from "../../core/store.ts";
import { noteAttempt } from "./delivery.ts";
import { toAttempt, toNotification } from "../rows.ts";
import { prepared } from "./statement.ts";
import { inTransaction } from "./transaction.ts";
import { storedTradeNo } from "./order-keys.ts";

type Row = Record<string, unknown>;

const byDue = (a: Notification, b: Notification) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id;

// Held once per database (statement.ts). `+`: the lease seeks each admitted row by id, not a walk of
// every due row on the due index.
const LEASE_IDS = prepared(`UPDATE notifications SET claimed_until = $until
  WHERE id IN (SELECT value FROM json_each($ids)) AND +status = 'pending' AND +next_attempt_at <= $now AND claimed_until <= $now
  RETURNING *`);
const INSERT_ATTEMPT = prepared(`INSERT INTO notification_attempts (notification_id, attempted_at, duration_ms, http_status, body, error, acknowledged)
  VALUES ($id, $at, $dur, $status, $body, $error, $ack)`);
const SETTLE = prepared(`UPDATE notifications SET attempts = attempts + 1, status = $status, next_attempt_at = $next, claimed_until = 0,
    delivered_at = CASE WHEN $status = 'delivered' THEN $at ELSE delivered_at END
  WHERE id = $id`);

/**
 * Claims due rows by pushing their lease forward in the same statement that selects them, so two
 * workers (two processes on one database) never send the same attempt. With `fair`, the worker's
 * fair-share rule picks the rows inside the same write transaction (see claimFair).
 */
export function claimDue(db: Database, nowMs: number, limit: number, leaseMs: number, fair?: ClaimFilter): Notification[] {
  if (fair) return claimFair(db, nowMs, limit, leaseMs, fair);
  const rows = db
    .query(
      `UPDATE notifications SET claimed_until = $until
       WHERE id IN (SELECT id FROM notifications
                    WHERE status = 'pending' AND next_attempt_at <= $now AND claimed_until <= $now
                    ORDER BY next_attempt_at LIMIT $limit)
       RETURNING *`,
    )
    .all({ now: nowMs, until: nowMs + leaseMs, limit }) as Row[];
  return rows.map(toNotification);
}

// The merchants with pending rows, one seek each on the pending rows' index (migration 037), and
// for each at most its share of due, unleased rows in due order: a pass reads what it could
// admit, not the backlog. Named indexes: SQLite otherwise walked the due index over every pending row.
// Exported for the plan test.
export const FAIR_CANDIDATES_SQL = `WITH RECURSIVE m(pid) AS (
    SELECT MIN(pid) FROM notifications INDEXED BY notifications_pending_by_pid WHERE status = 'pending'
    UNION ALL
    SELECT (SELECT MIN(pid) FROM notifications INDEXED BY notifications_pending_by_pid WHERE status = 'pending' AND pid > m.pid)
    FROM m WHERE m.pid IS NOT NULL)
  SELECT n.id, n.url, n.pid FROM m JOIN notifications n ON n.id IN (
    SELECT id FROM notifications INDEXED BY notifications_pending_by_pid
    WHERE status = 'pending' AND pid = m.pid AND next_attempt_at <= $now AND claimed_until <= $now
    ORDER BY next_attempt_at, id LIMIT $per)
  ORDER BY n.next_attempt_at, n.id`;
const FAIR_CANDIDATES = prepared(FAIR_CANDIDATES_SQL);

// The first due, unleased rows in due order, on the due index (no sort): while fewer rows are due
// than one merchant's share, as under a steady load, they are all of them, and a pass reads only
// these (15 µs against the walk's 30 with three rows due; 20-25 µs more where the walk must follow:
// bench/claim-backlog.ts, 2026-11-30). Exported for the plan test.
export const FIRST_DUE_SQL = `SELECT id, url, pid FROM notifications
  WHERE status = 'pending' AND next_attempt_at <= $now AND claimed_until <= $now
  ORDER BY next_attempt_at, id LIMIT $k`;
const FIRST_DUE = prepared(FIRST_DUE_SQL);

type Candidate = { id: number; url: string; pid: number };

/**
 * Reads the due, unleased rows in due order, at most `perMerchant` per merchant (rows past that
 * could not be admitted), asks the rule about each, and leases only the admitted ones. Rows it
 * refuses are left exactly as they were: due, unleased, their attempt count untouched. The read
 * runs outside the write lock and costs the same whatever the backlog; the lease is a conditional
 * update in one short transaction, so a row another claimer leased in between is simply not returned.
 *
 * The read: the first `perMerchant` due rows (FIRST_DUE). When fewer came back they were every due
 * row, and no merchant has more than its share among them: the walk by merchant (FAIR_CANDIDATES)
 * would return the same rows in the same order, so it runs only when as many came back.
 */
function claimFair(db: Database, nowMs: number, limit: number, leaseMs: number, fair: ClaimFilter): Notification[] {
  const first = FIRST_DUE(db).all({ now: nowMs, k: fair.perMerchant }) as Candidate[];
  const candidates = first.length < fair.perMerchant ? first : (FAIR_CANDIDATES(db).all({ now: nowMs, per: fair.perMerchant }) as Candidate[]);
  const admitted: number[] = [];
  for (const c of candidates) {
    if (admitted.length >= limit) break;
    if (fair.admit(c)) admitted.push(c.id);
  }
  if (admitted.length === 0) return [];
  // One statement leases the whole batch (one write, one commit); its conditions are the lease's, so a
  // row another claimer leased since the read is not returned, and the rows come back in due order.
  const rows = LEASE_IDS(db).all({ ids: JSON.stringify(admitted), now: nowMs, until: nowMs + leaseMs }) as Row[];
  return rows.map(toNotification).sort(byDue);
}

/**
 * One attempt's record: the attempt, the row's new state (lease released) and the merchant's
 * delivery row. A savepoint of the store's group commit (index.ts), so the acknowledgements that
 * finish in one turn of the event loop share one commit, and one that fails is rolled back alone.
 */
export function recordAttempt(db: Database, id: number, o: AttemptOutcome): void {
  inTransaction(db, () => {
    const a = o.attempt;
    INSERT_ATTEMPT(db).run({ id, at: a.attemptedAt, dur: a.durationMs, status: a.httpStatus, body: a.body, error: a.error, ack: a.acknowledged ? 1 : 0 });
    SETTLE(db).run({ id, status: o.status, next: o.nextAttemptAt, at: a.attemptedAt });
    noteAttempt(db, id, o);
  });
}

export function requeue(db: Database, tradeNo: string, nowMs: number): boolean {
  return (
    db
      .query("UPDATE notifications SET status = 'pending', next_attempt_at = $now, claimed_until = 0 WHERE trade_no = $t")
      .run({ t: storedTradeNo(db, tradeNo), now: nowMs }).changes === 1
  );
}

export function getNotification(db: Database, tradeNo: string): (Notification & { attempts_log: NotificationAttempt[] }) | null {
  const row = db.query("SELECT * FROM notifications WHERE trade_no = $t").get({ t: storedTradeNo(db, tradeNo) }) as Row | null;
  if (!row) return null;
  const n = toNotification(row);
  const attempts = (db.query("SELECT * FROM notification_attempts WHERE notification_id = $id ORDER BY id").all({ id: n.id }) as Row[]).map(toAttempt);
  return { ...n, attempts_log: attempts };
}

export function listNotifications(db: Database, f: NotificationFilter): Notification[] {
  // Walks the ids down from the newest; the merchant is the row's own (migration 037).
  const rows = db
    .query(
      `SELECT * FROM notifications n WHERE ($status IS NULL OR n.status = $status) AND ($from IS NULL OR n.created_at >= $from)
         AND ($to IS NULL OR n.created_at < $to) AND ($pid IS NULL OR n.pid = $pid)
       ORDER BY n.id DESC LIMIT $limit`,
    )
    .all({ status: f.status ?? null, pid: f.pid ?? null, from: f.fromMs ?? null, to: f.toMs ?? null, limit: f.limit ?? 100 }) as Row[];
  return rows.map(toNotification);
}

export function nextDue(db: Database): number | null {
  const row = db.query("SELECT MIN(MAX(next_attempt_at, claimed_until)) AS due FROM notifications WHERE status = 'pending'").get() as { due: number | null };
  return row.due;
}
