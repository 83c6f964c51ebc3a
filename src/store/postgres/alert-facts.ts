// What the alert conditions read (core/alerts/conditions.ts, events.ts) on PostgreSQL: the grouped,
// capped queries of ../sqlite/alert-facts.ts. Each call is one REPEATABLE READ, READ ONLY
// transaction, so the lists (and the event rows and the cursors that follow them) come from one
// snapshot, as SQLite's read transaction gives; it takes no lock a writer waits for.
import type { SQL } from "bun";
import type { AlertEvents, FactQuery, StoredFacts } from "../../core/alerts/store.ts";
import { eventsFromRows } from "../sqlite/alert-facts.ts";

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** `read` in one snapshot that nothing waits for. */
export function snapshot<T>(sql: SQL, read: (tx: SQL) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    await tx`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`;
    return read(tx);
  }) as Promise<T>;
}

export function readFacts(sql: SQL, q: FactQuery, first?: (tx: SQL) => Promise<void>): Promise<StoredFacts> {
  return snapshot(sql, async (tx): Promise<StoredFacts> => {
    await first?.(tx);
    const truncated: StoredFacts["truncated"] = [];
    // Each list is read for limit + 1 rows: the extra one only says the list was cut.
    const list = <T>(name: StoredFacts["truncated"][number], rows: Row[], map: (r: Row) => T): T[] => {
      if (rows.length > q.limit) truncated.push(name);
      return rows.slice(0, q.limit).map(map);
    };
    const cap = q.limit + 1;
    const clients = list("clients", await tx`SELECT id, kind, pid, name, last_seen_at FROM clients ORDER BY id LIMIT ${cap}`, (r) => ({
      id: num(r.id), kind: String(r.kind), pid: num(r.pid), name: String(r.name), lastSeenAt: num(r.last_seen_at),
    }));
    const pendingAccounts = list(
      "pendingAccounts",
      await tx`
        SELECT a.id, a.pid, a.name, a.pay_type, a.last_seen_at, COUNT(*) AS pending, MIN(o.created_at) AS oldest, MIN(o.trade_no) AS trade_no
        FROM orders o JOIN channel_accounts a ON a.id = o.account_id
        WHERE o.status = 1 AND o.expire_time > ${q.now} GROUP BY a.id ORDER BY a.id LIMIT ${cap}`,
      (r) => ({ id: num(r.id), pid: num(r.pid), name: String(r.name), payType: String(r.pay_type), lastSeenAt: num(r.last_seen_at), pending: num(r.pending), oldestAt: num(r.oldest), tradeNo: String(r.trade_no) }),
    );
    const failingNotifications = list(
      "failingNotifications",
      await tx`
        SELECT n.id, n.trade_no, n.attempts, n.created_at, n.url, n.pid, last.error AS last_error, last.http_status AS last_status
        FROM notifications n
        LEFT JOIN LATERAL (SELECT error, http_status FROM notification_attempts WHERE notification_id = n.id ORDER BY id DESC LIMIT 1) last ON true
        WHERE n.status = 'pending' AND n.attempts >= ${q.minAttempts} ORDER BY n.id LIMIT ${cap}`,
      (r) => ({ id: num(r.id), tradeNo: String(r.trade_no), pid: num(r.pid), attempts: num(r.attempts), createdAt: Math.floor(num(r.created_at) / 1000), url: String(r.url), lastError: String(r.last_error ?? ""), lastStatus: numOrNull(r.last_status) }),
    );
    const failingMerchants = list(
      "failingMerchants",
      await tx`
        SELECT n.pid, COUNT(*) AS failing, MIN(n.created_at) AS since_ms, MIN(n.trade_no) AS trade_no
        FROM notifications n
        WHERE n.status = 'pending' AND n.attempts > 0 GROUP BY n.pid ORDER BY n.pid LIMIT ${cap}`,
      (r) => ({ pid: num(r.pid), failing: num(r.failing), since: Math.floor(num(r.since_ms) / 1000), tradeNo: String(r.trade_no) }),
    );
    // Only for merchants failing longer than the window: one delivery since then is enough.
    const deliveredPids: number[] = [];
    for (const m of failingMerchants) {
      if (m.since * 1000 > q.deliveredSince) continue;
      const one = await tx`
        SELECT 1 FROM notifications n
        WHERE n.status = 'delivered' AND n.next_attempt_at >= ${q.deliveredSince} AND n.pid = ${m.pid} ORDER BY n.next_attempt_at DESC LIMIT 1`;
      if (one.length) deliveredPids.push(m.pid);
    }
    const createFailures = list(
      "createFailures",
      await tx`
        SELECT pid, fail_reason, COUNT(*) AS n, MIN(created_at) AS since, MAX(trade_no) AS trade_no FROM orders
        WHERE status = 5 AND expire_time >= ${q.createdSince} AND created_at >= ${q.createdSince} GROUP BY pid, fail_reason ORDER BY pid LIMIT ${cap}`,
      (r) => ({ pid: num(r.pid), reason: String(r.fail_reason), count: num(r.n), since: num(r.since), tradeNo: String(r.trade_no) }),
    );
    return { truncated, clients, pendingAccounts, failingNotifications, failingMerchants, deliveredPids, createFailures };
  });
}

/**
 * Reports that paid or failed to pay (not heartbeats, refusals, duplicates or the operator's own
 * simulate-pay) and given-up notifications, after the stored cursors; a database without cursors
 * starts them at its newest rows (history from before alerts existed is not alerted).
 */
export function readEvents(sql: SQL, limit: number, first?: (tx: SQL) => Promise<void>): Promise<AlertEvents> {
  return snapshot(sql, async (tx): Promise<AlertEvents> => {
    await first?.(tx);
    const stored = new Map(((await tx`SELECT name, value FROM alert_cursors`) as Row[]).map((r) => [String(r.name), num(r.value)]));
    const [max] = (await tx`SELECT (SELECT MAX(id) FROM reports) AS reports, (SELECT MAX(id) FROM notification_attempts) AS attempts`) as Row[];
    const maxReport = num(max!.reports);
    const maxAttempt = num(max!.attempts);
    if (!stored.has("reports") || !stored.has("attempts")) return { reports: [], givenUp: [], cursors: { reports: maxReport, attempts: maxAttempt } };
    const reports = (await tx`
      SELECT r.id, r.kind, r.pid, r.amount, r.pay_type, r.outcome, r.reason, r.trade_no, r.created_at, o.status, o.expire_time, o.paid_at, o.closed_at
      FROM reports r LEFT JOIN orders o ON o.trade_no = r.trade_no
      WHERE r.id > ${stored.get("reports")!} AND r.id <= ${maxReport} AND r.outcome IN ('matched', 'unmatched') AND r.kind <> 'operator' ORDER BY r.id LIMIT ${limit}`) as Row[];
    const attempts = (await tx`
      SELECT a.id AS attempt_id, n.id, n.trade_no, n.attempts, n.pid, a.error, a.http_status, a.attempted_at
      FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id
      WHERE a.id > ${stored.get("attempts")!} AND a.id <= ${maxAttempt} AND n.status = 'failed' ORDER BY a.id LIMIT ${limit}`) as Row[];
    return eventsFromRows(reports, attempts, { limit, maxReport, maxAttempt });
  });
}
