// The operator's read side (core/browse/store.ts) on PostgreSQL: the queries of ../sqlite/browse.ts
// without SQLite's planner hints (`+column`, INDEXED BY); PostgreSQL picks the indexes of
// migrations 010, 011 and 014 itself. Filters are built from the fields given, each a parameter.
import type { SQL } from "bun";
import type { AttentionRows, BrowseStore, CandidateQuery, NotificationState, OrderQuery, OrderTotals, ReportQuery } from "../../core/browse/store.ts";
import type { StoredReport } from "../../core/store.ts";
import type { Order } from "../../core/types.ts";
import { toNotification, toOrder, toReport } from "../rows.ts";

type Row = Record<string, unknown>;

/** Collects parameters; `p(v)` returns its placeholder. */
function params() {
  const values: (string | number)[] = [];
  return { values, p: (v: string | number, type: "bigint" | "text") => (values.push(v), `$${values.length}::${type}`) };
}

/** The filter's conditions (not the page position): shared by the page, the totals and the export. */
function orderWhere(q: Omit<OrderQuery, "after" | "limit">, p: ReturnType<typeof params>["p"]): string[] {
  const where: string[] = [];
  if (q.status === 1) where.push(`status = 1 AND expire_time >= ${p(q.now, "bigint")}`);
  // The sweeper writes 4 within seconds; a pending row past its expiry reads as timed out meanwhile.
  else if (q.status === 4) where.push(`status IN (1, 4) AND (status = 4 OR expire_time < ${p(q.now, "bigint")})`);
  else if (q.status !== undefined) where.push(`status = ${p(q.status, "bigint")}`);
  if (q.pid !== undefined) where.push(`pid = ${p(q.pid, "bigint")}`);
  if (q.payType !== undefined) where.push(`pay_type = ${p(q.payType, "text")}`);
  if (q.accountId !== undefined) where.push(`account_id = ${p(q.accountId, "bigint")}`);
  if (q.from !== undefined) where.push(`created_at >= ${p(q.from, "bigint")}`);
  if (q.to !== undefined) where.push(`created_at < ${p(q.to, "bigint")}`);
  if (q.search) {
    const arms: string[] = [];
    if (q.search.tradeNo !== undefined) arms.push(`trade_no = ${p(q.search.tradeNo, "text")}`);
    if (q.search.outTradeNo !== undefined) arms.push(`out_trade_no = ${p(q.search.outTradeNo, "text")}`);
    if (q.search.tradeAmount !== undefined) arms.push(`trade_amount = ${p(q.search.tradeAmount, "bigint")}`);
    if (arms.length) where.push(`(${arms.join(" OR ")})`);
  }
  if (q.clientIp !== undefined) where.push(`clientip = ${p(q.clientIp, "text")}`);
  if (q.amountMin !== undefined) where.push(`amount >= ${p(q.amountMin, "bigint")}`);
  if (q.amountMax !== undefined) where.push(`amount <= ${p(q.amountMax, "bigint")}`);
  if (q.paidFrom !== undefined) where.push(`status = 2 AND paid_at >= ${p(q.paidFrom, "bigint")}`);
  if (q.paidTo !== undefined) where.push(`status = 2 AND paid_at < ${p(q.paidTo, "bigint")}`);
  return where;
}

export async function searchOrders(sql: SQL, q: OrderQuery): Promise<Order[]> {
  const { values, p } = params();
  const where = orderWhere(q, p);
  if (q.after) where.push(`(created_at, trade_no) < (${p(q.after.createdAt, "bigint")}, ${p(q.after.tradeNo, "text")})`);
  const text = `SELECT * FROM orders ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, trade_no DESC LIMIT ${p(q.limit, "bigint")}`;
  return ((await sql.unsafe(text, values)) as Row[]).map(toOrder);
}

export async function orderTotals(sql: SQL, q: Omit<OrderQuery, "after" | "limit">): Promise<OrderTotals> {
  const { values, p } = params();
  const where = orderWhere(q, p);
  const text = `SELECT COUNT(*) AS n, COALESCE(SUM(amount), 0) AS amount, COUNT(*) FILTER (WHERE status = 2) AS paid_n,
      COALESCE(SUM(trade_amount) FILTER (WHERE status = 2), 0) AS paid_amount
    FROM orders ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`;
  const [row] = (await sql.unsafe(text, values)) as Row[];
  return { count: Number(row!.n), amount: Number(row!.amount), paidCount: Number(row!.paid_n), paidAmount: Number(row!.paid_amount) };
}

export async function notificationStates(sql: SQL, tradeNos: string[]): Promise<NotificationState[]> {
  if (tradeNos.length === 0) return [];
  const rows = await sql`SELECT trade_no, status, attempts FROM notifications WHERE trade_no = ANY(${tradeNos}::text[])`;
  return rows.map((r: Row) => ({ tradeNo: String(r.trade_no), status: r.status as NotificationState["status"], attempts: Number(r.attempts) }));
}

export async function getReport(sql: SQL, id: number): Promise<StoredReport | null> {
  const rows = await sql`SELECT * FROM reports WHERE id = ${id}`;
  return rows.length ? toReport(rows[0]) : null;
}

export async function reportsForOrder(sql: SQL, tradeNo: string, limit: number): Promise<StoredReport[]> {
  return (await sql`SELECT * FROM reports WHERE trade_no = ${tradeNo} ORDER BY id LIMIT ${limit}`).map(toReport);
}

export async function searchReports(sql: SQL, q: ReportQuery): Promise<StoredReport[]> {
  const { values, p } = params();
  const where: string[] = [];
  if (q.outcome !== undefined) where.push(`outcome = ${p(q.outcome, "text")}`);
  if (q.pid !== undefined) where.push(`pid = ${p(q.pid, "bigint")}`);
  if (q.kind !== undefined) where.push(`kind = ${p(q.kind, "text")}`);
  if (q.beforeId !== undefined) where.push(`id < ${p(q.beforeId, "bigint")}`);
  if (q.money !== undefined) where.push(q.money ? "amount IS NOT NULL" : "amount IS NULL");
  if (q.from !== undefined) where.push(`created_at >= ${p(q.from, "bigint")}`);
  if (q.to !== undefined) where.push(`created_at < ${p(q.to, "bigint")}`);
  const text = `SELECT * FROM reports ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ${p(q.limit, "bigint")}`;
  return ((await sql.unsafe(text, values)) as Row[]).map(toReport);
}

/** The orders that could have been payable when the money arrived: its pay type first, then nearest amount. */
export async function assignCandidates(sql: SQL, q: CandidateQuery): Promise<Order[]> {
  const rows = await sql`
    SELECT * FROM orders WHERE status IN (1, 4) AND expire_time BETWEEN ${q.at - q.window} AND ${q.at + q.maxLifetime} AND created_at <= ${q.at}
      AND trade_amount IS NOT NULL AND (${q.pid ?? null}::bigint IS NULL OR pid = ${q.pid ?? null}::bigint)
    ORDER BY pay_type = ${q.payType}::text DESC, ABS(trade_amount - ${q.amount}::bigint), created_at DESC, trade_no DESC LIMIT ${q.limit}`;
  return rows.map(toOrder);
}

export async function attention(sql: SQL, o: { since: number; limit: number; minAttempts: number }): Promise<AttentionRows> {
  // Only what phones reported counts, money apart from messages that were no payment (sqlite/browse.ts);
  // the literal conditions match the partial indexes of migration 022.
  const money = await sql`
    SELECT * FROM reports WHERE outcome = 'unmatched' AND created_at >= ${o.since} AND kind IN ('message', 'amount', 'third-account', 'vmq-push')
      AND amount IS NOT NULL ORDER BY created_at DESC LIMIT ${o.limit}`;
  const noise = await sql`
    SELECT * FROM reports WHERE outcome = 'unmatched' AND created_at >= ${o.since} AND kind IN ('message', 'amount', 'third-account', 'vmq-push')
      AND amount IS NULL ORDER BY created_at DESC LIMIT ${o.limit}`;
  const failing = await sql`
    SELECT n.*, n.pid AS order_pid,
      (SELECT COALESCE(NULLIF(a.error, ''), 'HTTP ' || a.http_status) FROM notification_attempts a
        WHERE a.notification_id = n.id ORDER BY a.id DESC LIMIT 1) AS last_error
    FROM notifications n
    WHERE n.status <> 'delivered' AND n.created_at >= ${o.since * 1000} AND (n.status = 'failed' OR n.attempts >= ${o.minAttempts})
    ORDER BY n.created_at DESC, n.id DESC LIMIT ${o.limit}`;
  // core/browse/late.ts in SQL, as in sqlite/browse.ts. `+ 0`: MIN over an index on created_at
  // (reports_by_outcome_time) would walk every matched report; by trade_no it is one or two rows.
  const late = await sql`
    SELECT o.*, COALESCE((SELECT MIN(r.created_at + 0) FROM reports r WHERE r.trade_no = o.trade_no AND r.outcome = 'matched'), o.paid_at) AS money_at
    FROM orders o
    WHERE o.status = 2 AND o.paid_at > o.expire_time AND o.paid_at >= ${o.since}
      AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.trade_no = o.trade_no AND r.outcome = 'matched' AND (r.kind = 'operator' OR r.created_at <= o.expire_time))
    ORDER BY o.paid_at DESC LIMIT ${o.limit}`;
  const failed = await sql`
    SELECT * FROM orders WHERE status = 5 AND created_at >= ${o.since} ORDER BY created_at DESC, trade_no DESC LIMIT ${o.limit}`;
  return {
    unmatchedReports: money.map(toReport),
    notPayments: noise.map(toReport),
    failingNotifications: failing.map((r: Row) => ({ ...toNotification(r), pid: Number(r.order_pid), lastError: String(r.last_error ?? "") })),
    latePayments: late.map((r: Row) => ({ ...toOrder(r), moneyAt: Number(r.money_at) })),
    creationFailures: failed.map(toOrder),
  };
}

/** `db` waits for the pool's schema check, as every unit of the store does. */
export function browseStore(db: () => Promise<SQL>): BrowseStore {
  return {
    searchOrders: async (q) => searchOrders(await db(), q),
    orderTotals: async (q) => orderTotals(await db(), q),
    notificationStates: async (t) => notificationStates(await db(), t),
    getReport: async (id) => getReport(await db(), id),
    reportsForOrder: async (t, limit) => reportsForOrder(await db(), t, limit),
    searchReports: async (q) => searchReports(await db(), q),
    assignCandidates: async (q) => assignCandidates(await db(), q),
    attention: async (o) => attention(await db(), o),
  };
}
