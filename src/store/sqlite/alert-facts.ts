// What the alert conditions read (core/alerts/conditions.ts, events.ts): a few grouped queries
// over the indexes the gateway already has (orders_expiry, notifications_due, reports'
// outcome/time index, primary keys behind the cursors), each capped. One read transaction per
// call, so the event rows and the cursors that follow them come from one snapshot; no write lock.
import type { Database } from "bun:sqlite";
import type { AlertEvents, FactQuery, StoredFacts } from "../../core/alerts/store.ts";
import { publicTradeNo, publicTradeNoOrNull } from "../trade-no.ts";

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Runs the query for limit + 1 rows: the extra one only says the list was cut. */
function capped(db: Database, sql: string, params: Record<string, string | number>, limit: number): { rows: Row[]; cut: boolean } {
  const rows = db.query(`${sql} LIMIT $cap`).all({ ...params, cap: limit + 1 }) as Row[];
  return { rows: rows.slice(0, limit), cut: rows.length > limit };
}

export function readFacts(db: Database, q: FactQuery): StoredFacts {
  return db.transaction((): StoredFacts => {
    const truncated: StoredFacts["truncated"] = [];
    const list = <T>(name: StoredFacts["truncated"][number], sql: string, params: Record<string, string | number>, map: (r: Row) => T): T[] => {
      const r = capped(db, sql, params, q.limit);
      if (r.cut) truncated.push(name);
      return r.rows.map(map);
    };
    const clients = list("clients", "SELECT id, kind, pid, name, last_seen_at FROM clients ORDER BY id", {}, (r) => ({
      id: num(r.id), kind: String(r.kind), pid: num(r.pid), name: String(r.name), lastSeenAt: num(r.last_seen_at),
    }));
    const pendingAccounts = list(
      "pendingAccounts",
      `SELECT a.id, a.pid, a.name, a.pay_type, a.last_seen_at, COUNT(*) AS pending, MIN(o.created_at) AS oldest, MIN(o.trade_no) AS trade_no
       FROM orders o JOIN channel_accounts a ON a.id = o.account_id
       WHERE o.status = 1 AND o.expire_time > $now GROUP BY a.id ORDER BY a.id`,
      { now: q.now },
      (r) => ({ id: num(r.id), pid: num(r.pid), name: String(r.name), payType: String(r.pay_type), lastSeenAt: num(r.last_seen_at), pending: num(r.pending), oldestAt: num(r.oldest), tradeNo: publicTradeNo(String(r.trade_no)) }),
    );
    const failingNotifications = list(
      "failingNotifications",
      `SELECT n.id, n.trade_no, n.attempts, n.created_at, n.url, n.pid,
         (SELECT error FROM notification_attempts WHERE notification_id = n.id ORDER BY id DESC LIMIT 1) AS last_error,
         (SELECT http_status FROM notification_attempts WHERE notification_id = n.id ORDER BY id DESC LIMIT 1) AS last_status
       FROM notifications n
       WHERE n.status = 'pending' AND n.attempts >= $min ORDER BY n.id`,
      { min: q.minAttempts },
      (r) => ({ id: num(r.id), tradeNo: publicTradeNo(String(r.trade_no)), pid: num(r.pid), attempts: num(r.attempts), createdAt: Math.floor(num(r.created_at) / 1000), url: String(r.url), lastError: String(r.last_error ?? ""), lastStatus: numOrNull(r.last_status) }),
    );
    const failingMerchants = list(
      "failingMerchants",
      `SELECT n.pid, COUNT(*) AS failing, MIN(n.created_at) AS since_ms, MIN(n.trade_no) AS trade_no
       FROM notifications n
       WHERE n.status = 'pending' AND n.attempts > 0 GROUP BY n.pid ORDER BY n.pid`,
      {},
      (r) => ({ pid: num(r.pid), failing: num(r.failing), since: Math.floor(num(r.since_ms) / 1000), tradeNo: publicTradeNo(String(r.trade_no)) }),
    );
    // Only for merchants failing longer than the window: the newest deliveries first, one is enough.
    const deliveredOne = db.query(
      `SELECT 1 FROM notifications n
       WHERE n.status = 'delivered' AND n.next_attempt_at >= $since AND n.pid = $pid ORDER BY n.next_attempt_at DESC LIMIT 1`,
    );
    const deliveredPids = failingMerchants.filter((m) => m.since * 1000 <= q.deliveredSince && deliveredOne.get({ since: q.deliveredSince, pid: m.pid }) !== null).map((m) => m.pid);
    const createFailures = list(
      "createFailures",
      `SELECT pid, fail_reason, COUNT(*) AS n, MIN(created_at) AS since, MAX(trade_no) AS trade_no FROM orders
       WHERE status = 5 AND expire_time >= $since AND created_at >= $since GROUP BY pid, fail_reason ORDER BY pid`,
      { since: q.createdSince },
      (r) => ({ pid: num(r.pid), reason: String(r.fail_reason), count: num(r.n), since: num(r.since), tradeNo: publicTradeNo(String(r.trade_no)) }),
    );
    return { truncated, clients, pendingAccounts, failingNotifications, failingMerchants, deliveredPids, createFailures };
  })();
}

/**
 * Reports that paid or failed to pay (not heartbeats, refusals, duplicates or the operator's own
 * simulate-pay) and given-up notifications, after the stored cursors. A database without cursors
 * starts them at its newest rows: history from before alerts existed is not alerted.
 */
export function readEvents(db: Database, limit: number): AlertEvents {
  return db.transaction((): AlertEvents => {
    const stored = new Map((db.query("SELECT name, value FROM alert_cursors").all() as Row[]).map((r) => [String(r.name), num(r.value)]));
    const maxReport = num((db.query("SELECT MAX(id) AS m FROM reports").get() as Row).m);
    const maxAttempt = num((db.query("SELECT MAX(id) AS m FROM notification_attempts").get() as Row).m);
    if (!stored.has("reports") || !stored.has("attempts")) return { reports: [], givenUp: [], cursors: { reports: maxReport, attempts: maxAttempt } };
    const reports = db
      .query(
        `SELECT r.id, r.kind, r.pid, r.amount, r.pay_type, r.outcome, r.reason, r.trade_no, r.created_at, o.status, o.expire_time, o.paid_at, o.closed_at
         FROM reports r LEFT JOIN orders o ON o.trade_no = r.trade_no
         WHERE r.id > $after AND r.id <= $max AND r.outcome IN ('matched', 'unmatched') AND r.kind <> 'operator' ORDER BY r.id LIMIT $limit`,
      )
      .all({ after: stored.get("reports")!, max: maxReport, limit }) as Row[];
    const attempts = db
      .query(
        `SELECT a.id AS attempt_id, n.id, n.trade_no, n.attempts, n.pid, a.error, a.http_status, a.attempted_at
         FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id
         WHERE a.id > $after AND a.id <= $max AND n.status = 'failed' ORDER BY a.id LIMIT $limit`,
      )
      .all({ after: stored.get("attempts")!, max: maxAttempt, limit }) as Row[];
    return eventsFromRows(reports, attempts, { limit, maxReport, maxAttempt });
  })();
}

/**
 * The events of one read, from the rows of its two queries (shared with the PostgreSQL adapter):
 * a source whose rows filled the limit moves its cursor only past what was read.
 */
export function eventsFromRows(reports: Row[], attempts: Row[], o: { limit: number; maxReport: number; maxAttempt: number }): AlertEvents {
  const givenUp = new Map<number, AlertEvents["givenUp"][number]>();
  for (const a of attempts) {
    givenUp.set(num(a.id), { notificationId: num(a.id), tradeNo: publicTradeNo(String(a.trade_no)), pid: num(a.pid), attempts: num(a.attempts), lastError: String(a.error ?? ""), lastStatus: numOrNull(a.http_status), at: Math.floor(num(a.attempted_at) / 1000) });
  }
  return {
    reports: reports.map((r) => ({
      id: num(r.id), kind: String(r.kind), pid: numOrNull(r.pid), amount: numOrNull(r.amount), payType: String(r.pay_type ?? ""), outcome: String(r.outcome), reason: String(r.reason ?? ""),
      tradeNo: publicTradeNoOrNull(r.trade_no), createdAt: num(r.created_at), orderStatus: numOrNull(r.status), expireTime: numOrNull(r.expire_time), paidAt: numOrNull(r.paid_at), closedAt: numOrNull(r.closed_at),
    })),
    givenUp: [...givenUp.values()],
    cursors: {
      reports: reports.length === o.limit ? num(reports.at(-1)!.id) : o.maxReport,
      attempts: attempts.length === o.limit ? num(attempts.at(-1)!.attempt_id) : o.maxAttempt,
    },
  };
}
