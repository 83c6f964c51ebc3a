// The operator's read side (core/browse/store.ts) on SQLite: every query walks an index in the
// order it returns rows, so a filtered page of a million orders reads about one page of rows.
import type { Database } from "bun:sqlite";
import type { AttentionRows, BrowseStore, CandidateQuery, NotificationState, OrderQuery, OrderTotals, ReportQuery } from "../../core/browse/store.ts";
import type { StoredReport } from "../../core/store.ts";
import type { Order } from "../../core/types.ts";
import { toNotification, toOrder, toReport } from "../rows.ts";
import { publicTradeNo, storedTradeNo } from "./order-keys.ts";

type Row = Record<string, unknown>;
type Bind = Record<string, string | number | null>;

/** The search arms, each on its own index: primary key, (pid, out_trade_no), (account_id, trade_amount). */
function searchClause(s: NonNullable<OrderQuery["search"]>, bind: Bind): string | null {
  const arms: string[] = [];
  if (s.tradeNo !== undefined) {
    arms.push("SELECT trade_no FROM orders WHERE trade_no = $s_trade_no");
    bind.s_trade_no = s.tradeNo;
  }
  if (s.outTradeNo !== undefined) {
    arms.push("SELECT trade_no FROM orders WHERE pid IN (SELECT pid FROM merchants) AND out_trade_no = $s_out");
    bind.s_out = s.outTradeNo;
  }
  if (s.tradeAmount !== undefined) {
    arms.push("SELECT trade_no FROM orders WHERE account_id IN (SELECT id FROM channel_accounts) AND trade_amount = $s_amount");
    bind.s_amount = s.tradeAmount;
  }
  return arms.length === 0 ? null : `trade_no IN (${arms.join(" UNION ")})`;
}

/** The filter's conditions (not the page position): shared by the page, the totals and the export. */
export function orderWhere(q: Omit<OrderQuery, "after" | "limit">, bind: Bind): string[] {
  const where: string[] = [];
  // A search names a few orders (a number, or a payable amount): read those by their keys and sort
  // them. Without the `+` SQLite walked the status or merchant index to spare the sort, through every
  // paid order of a merchant to find seven (131 ms on a million orders; the ties of one second are
  // sorted apart since migration 030, so that walk no longer even spares a sort).
  const search = q.search ? searchClause(q.search, bind) : null;
  const key = search ? "+" : "";
  if (q.status === 1) {
    where.push(`${key}status = 1 AND expire_time >= $now`);
    bind.now = q.now;
  } else if (q.status === 4) {
    // The sweeper writes 4 within seconds; a pending row past its expiry reads as timed out meanwhile.
    // Dense (most unpaid orders end this way): walk created_at and skip the others, as for pay_type.
    where.push("+status IN (1, 4) AND (status = 4 OR expire_time < $now)");
    bind.now = q.now;
  } else if (q.status !== undefined) {
    where.push(`${key}status = $status`);
    bind.status = q.status;
  }
  if (q.pid !== undefined) {
    where.push(`${key}pid = $pid`);
    bind.pid = q.pid;
  }
  // Few distinct values: walking created_at and skipping the others beats sorting all of one type.
  if (q.payType !== undefined) {
    where.push("+pay_type = $pay_type");
    bind.pay_type = q.payType;
  }
  if (q.accountId !== undefined) {
    where.push("+account_id = $account");
    bind.account = q.accountId;
  }
  if (q.from !== undefined) {
    where.push("created_at >= $from");
    bind.from = q.from;
  }
  if (q.to !== undefined) {
    where.push("created_at < $to");
    bind.to = q.to;
  }
  if (search) where.push(search);
  if (q.clientIp !== undefined) {
    where.push("clientip = $clientip"); // tested in orders_created_stats, its last column (migration 040)
    bind.clientip = q.clientIp;
  }
  // A range of amounts matches many orders: walk created_at and skip the others.
  if (q.amountMin !== undefined) {
    where.push("+amount >= $amount_min");
    bind.amount_min = q.amountMin;
  }
  if (q.amountMax !== undefined) {
    where.push("+amount <= $amount_max");
    bind.amount_max = q.amountMax;
  }
  if (q.paidFrom !== undefined || q.paidTo !== undefined) {
    where.push("status = 2 AND paid_at >= $paid_from AND paid_at < $paid_to");
    bind.paid_from = q.paidFrom ?? 0;
    bind.paid_to = q.paidTo ?? Number.MAX_SAFE_INTEGER;
  }
  return where;
}

/**
 * A paid-time range reads the paid orders' index (orders_paid_at, migration 025) and sorts what it
 * finds; walking created_at would read every paid order created since the range. A search is
 * narrower still and keeps its own index. A payer address has none since migration 040: the list
 * walks orders_created_stats newest first and tests the address there, reading only the rows that
 * match (a paid-time range beside it is narrower, and comes first).
 */
export function ordersFrom(q: Omit<OrderQuery, "after" | "limit">): string {
  if (q.search) return "orders";
  if (q.paidFrom !== undefined || q.paidTo !== undefined) return "orders INDEXED BY orders_paid_at";
  return q.clientIp !== undefined ? "orders INDEXED BY orders_created_stats" : "orders";
}

/** The query with its searched order number as it is stored (order-keys.ts). */
function storedSearch<Q extends Omit<OrderQuery, "after" | "limit">>(db: Database, q: Q): Q {
  return q.search?.tradeNo === undefined ? q : { ...q, search: { ...q.search, tradeNo: storedTradeNo(db, q.search.tradeNo) } };
}

export function searchOrders(db: Database, query: OrderQuery): Order[] {
  const q = storedSearch(db, query);
  const bind: Bind = { limit: q.limit };
  const where = orderWhere(q, bind);
  if (q.after) {
    // The page position is the last order shown: its stored key orders it within its second.
    where.push("(created_at, trade_no) < ($after_at, $after_no)");
    bind.after_at = q.after.createdAt;
    bind.after_no = storedTradeNo(db, q.after.tradeNo);
  }
  const sql = `SELECT * FROM ${ordersFrom(q)} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, trade_no DESC LIMIT $limit`;
  return (db.query(sql).all(bind) as Row[]).map(toOrder);
}

/** Sums read orders_created_stats, which holds every column a filter or a sum needs (migrations 023, 040). */
export function totalsFrom(q: Omit<OrderQuery, "after" | "limit">): string {
  return q.search || q.paidFrom !== undefined || q.paidTo !== undefined ? ordersFrom(q) : "orders INDEXED BY orders_created_stats";
}

export function orderTotals(db: Database, query: Omit<OrderQuery, "after" | "limit">): OrderTotals {
  const q = storedSearch(db, query);
  const bind: Bind = {};
  const where = orderWhere(q, bind);
  const row = db
    .query(
      `SELECT COUNT(*) AS n, COALESCE(SUM(amount), 0) AS amount, COALESCE(SUM(status = 2), 0) AS paid_n,
              COALESCE(SUM(CASE WHEN status = 2 THEN trade_amount END), 0) AS paid_amount
       FROM ${totalsFrom(q)} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`,
    )
    .get(bind) as Record<string, number>;
  return { count: Number(row.n), amount: Number(row.amount), paidCount: Number(row.paid_n), paidAmount: Number(row.paid_amount) };
}

export function notificationStates(db: Database, tradeNos: string[]): NotificationState[] {
  if (tradeNos.length === 0) return [];
  const rows = db
    .query("SELECT trade_no, status, attempts FROM notifications WHERE trade_no IN (SELECT value FROM json_each($t))")
    .all({ t: JSON.stringify(tradeNos.map((t) => storedTradeNo(db, t))) }) as { trade_no: string; status: NotificationState["status"]; attempts: number }[];
  return rows.map((r) => ({ tradeNo: publicTradeNo(r.trade_no), status: r.status, attempts: Number(r.attempts) }));
}

export function getReport(db: Database, id: number): StoredReport | null {
  const row = db.query("SELECT * FROM reports WHERE id = $id").get({ id }) as Row | null;
  return row ? toReport(row) : null;
}

export function reportsForOrder(db: Database, tradeNo: string, limit: number): StoredReport[] {
  return (db.query("SELECT * FROM reports WHERE trade_no = $t ORDER BY id LIMIT $limit").all({ t: storedTradeNo(db, tradeNo), limit }) as Row[]).map(toReport);
}

export function searchReports(db: Database, q: ReportQuery): StoredReport[] {
  const rows = db
    .query(
      `SELECT * FROM reports WHERE ($outcome IS NULL OR outcome = $outcome) AND ($pid IS NULL OR pid = $pid)
         AND ($kind IS NULL OR kind = $kind) AND ($before IS NULL OR id < $before) AND ($money IS NULL OR (amount IS NOT NULL) = $money)
         AND ($from IS NULL OR created_at >= $from) AND ($to IS NULL OR created_at < $to)
       ORDER BY id DESC LIMIT $limit`,
    )
    .all({ outcome: q.outcome ?? null, pid: q.pid ?? null, kind: q.kind ?? null, before: q.beforeId ?? null, money: q.money === undefined ? null : Number(q.money), from: q.from ?? null, to: q.to ?? null, limit: q.limit }) as Row[];
  return rows.map(toReport);
}

/** Walks orders_expiry (status, expire_time) over the orders that could have been payable when the money arrived. */
export function assignCandidates(db: Database, q: CandidateQuery): Order[] {
  const rows = db
    .query(
      `SELECT * FROM orders WHERE status IN (1, 4) AND expire_time BETWEEN $since AND $until AND created_at <= $at AND trade_amount IS NOT NULL
         AND ($pid IS NULL OR pid = $pid)
       ORDER BY pay_type = $pay_type DESC, ABS(trade_amount - $amount), created_at DESC, trade_no DESC LIMIT $limit`,
    )
    .all({ since: q.at - q.window, until: q.at + q.maxLifetime, at: q.at, pid: q.pid ?? null, amount: q.amount, pay_type: q.payType, limit: q.limit }) as Row[];
  return rows.map(toOrder);
}

export function attention(db: Database, o: { since: number; limit: number; minAttempts: number }): AttentionRows {
  // Only what phones reported counts (an operator's refused confirmation is no payment without an
  // order), money apart from messages that were no payment: noise never pushes money off the list.
  // Each walks its own partial index (migration 022) newest first, reading only the rows it shows.
  const unmatched = (money: boolean) =>
    db
      .query(
        `SELECT * FROM reports INDEXED BY ${money ? "reports_unmatched_money" : "reports_unmatched_no_money"}
         WHERE outcome = 'unmatched' AND created_at >= $since AND kind IN ('message', 'amount', 'third-account', 'vmq-push')
           AND ${money ? "amount IS NOT NULL" : "amount IS NULL"} ORDER BY created_at DESC LIMIT $limit`,
      )
      .all({ since: o.since, limit: o.limit }) as Row[];
  // Walks the small partial index of undelivered rows (migration 014), newest first.
  const failing = db
    .query(
      `SELECT n.*, n.pid AS order_pid,
         (SELECT COALESCE(NULLIF(a.error, ''), 'HTTP ' || a.http_status) FROM notification_attempts a
           WHERE a.notification_id = n.id ORDER BY a.id DESC LIMIT 1) AS last_error
       FROM notifications n INDEXED BY notifications_undelivered
       WHERE n.status <> 'delivered' AND n.created_at >= $since_ms AND (n.status = 'failed' OR n.attempts >= $min)
       ORDER BY n.created_at DESC, n.id DESC LIMIT $limit`,
    )
    .all({ min: o.minAttempts, since_ms: o.since * 1000, limit: o.limit }) as Row[];
  // core/browse/late.ts in SQL: money reported after the expiry, not an operator's payment; each
  // candidate of the small partial index orders_late looks its reports up by reports_by_trade_no.
  const late = db
    .query(
      `SELECT o.*, COALESCE((SELECT MIN(r.created_at) FROM reports r INDEXED BY reports_by_trade_no WHERE r.trade_no = o.trade_no AND r.outcome = 'matched'), o.paid_at) AS money_at
       FROM orders o INDEXED BY orders_late
       WHERE o.status = 2 AND o.paid_at > o.expire_time AND o.paid_at >= $since
         AND NOT EXISTS (SELECT 1 FROM reports r INDEXED BY reports_by_trade_no
           WHERE r.trade_no = o.trade_no AND r.outcome = 'matched' AND (r.kind = 'operator' OR r.created_at <= o.expire_time))
       ORDER BY o.paid_at DESC LIMIT $limit`,
    )
    .all({ since: o.since, limit: o.limit }) as Row[];
  const failed = db
    .query("SELECT * FROM orders WHERE status = 5 AND created_at >= $since ORDER BY created_at DESC, trade_no DESC LIMIT $limit")
    .all({ since: o.since, limit: o.limit }) as Row[];
  return {
    unmatchedReports: unmatched(true).map(toReport),
    notPayments: unmatched(false).map(toReport),
    failingNotifications: failing.map((r) => ({ ...toNotification(r), pid: Number(r.order_pid), lastError: String(r.last_error ?? "") })),
    latePayments: late.map((r) => ({ ...toOrder(r), moneyAt: Number(r.money_at) })),
    creationFailures: failed.map(toOrder),
  };
}

export function browseStore(db: Database): BrowseStore {
  return {
    searchOrders: async (q) => searchOrders(db, q),
    orderTotals: async (q) => orderTotals(db, q),
    notificationStates: async (t) => notificationStates(db, t),
    getReport: async (id) => getReport(db, id),
    reportsForOrder: async (t, limit) => reportsForOrder(db, t, limit),
    searchReports: async (q) => searchReports(db, q),
    assignCandidates: async (q) => assignCandidates(db, q),
    attention: async (o) => attention(db, o),
  };
}
