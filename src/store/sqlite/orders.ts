import type { Database } from "bun:sqlite";
import type { AllocationRule, AllocationView } from "../../core/allocation.ts";
import type { CreateOrderResult, CreateOrderUnit, OrderFilter } from "../../core/store.ts";
import type { ChannelAccount, Order } from "../../core/types.ts";
import { candidateAccounts, CandidatesInTransaction, getChannel, groupMembers, markUsed, takenTradeAmounts } from "./channels.ts";
import { inTransaction } from "./transaction.ts";
import { toOrder } from "../rows.ts";
import { prepared } from "./statement.ts";
import { insertedOrder } from "../created-order.ts";
import { tradeDay } from "../../core/ids.ts";
import { newStoredTradeNo, publicTradeNo, storedTradeNo } from "./order-keys.ts";

type Row = Record<string, unknown>;

const BY_TRADE_NO = prepared("SELECT * FROM orders WHERE trade_no = $t");
const BY_OUT_TRADE_NO = prepared("SELECT * FROM orders WHERE pid = $pid AND out_trade_no = $o");

/** By the public number, or by the stored key (order-keys.ts). */
export function getOrder(db: Database, tradeNo: string): Order | null {
  const row = BY_TRADE_NO(db).get({ t: storedTradeNo(db, tradeNo) }) as Row | null;
  return row ? toOrder(row) : null;
}

export function getOrderByOutTradeNo(db: Database, pid: number, outTradeNo: string): Order | null {
  const row = BY_OUT_TRADE_NO(db).get({ pid, o: outTradeNo }) as Row | null;
  return row ? toOrder(row) : null;
}

export function listOrders(db: Database, f: OrderFilter): Order[] {
  const rows = db
    .query(
      `SELECT * FROM orders WHERE ($pid IS NULL OR pid = $pid) AND ($status IS NULL OR status = $status)
       ORDER BY created_at DESC, trade_no DESC LIMIT $limit OFFSET $offset`,
    )
    .all({ pid: f.pid ?? null, status: f.status ?? null, limit: f.limit ?? 50, offset: f.offset ?? 0 }) as Row[];
  return rows.map(toOrder);
}

function view(db: Database, candidates: CandidatesInTransaction | null): AllocationView {
  return {
    candidateAccounts: (pid, payType, dayStart) => (candidates ? candidates.read(db, pid, payType, dayStart) : candidateAccounts(db, pid, payType, dayStart)),
    takenTradeAmounts: (accountId, since, range, first) =>
      takenTradeAmounts(db, candidates ? candidates.members(db, accountId) : groupMembers(db, accountId), since, range, first),
  };
}

/** The allocation columns of a new (or retried) order; the account's round-robin stamp moves on. */
interface Placement {
  account: ChannelAccount | null;
  acc: number | null;
  ta: number | null;
  status: 1 | 5;
  reason: string;
}

function place(db: Database, allocate: AllocationRule | null, candidates: CandidatesInTransaction | null): Placement {
  if (!allocate) return { account: null, acc: null, ta: null, status: 1, reason: "" };
  const a = allocate(view(db, candidates));
  if (!a.ok) return { account: null, acc: null, ta: null, status: 5, reason: a.reason };
  const useSeq = candidates ? candidates.stamp(db, a.account.id) : markUsed(db, a.account.id);
  return { account: { ...a.account, useSeq }, acc: a.account.id, ta: a.tradeAmount, status: 1, reason: "" };
}

function fields(u: CreateOrderUnit, p: Placement) {
  const o = u.order;
  return {
    pid: o.pid, out: o.outTradeNo, family: o.family, pay_type: o.payType, name: o.name, amount: o.amount, notify: o.notifyUrl,
    return: o.returnUrl, param: o.param, ip: o.clientip, device: o.device, extra: JSON.stringify(o.extra), now: u.now, expire: u.expireTime,
    acc: p.acc, ta: p.ta, status: p.status, reason: p.reason,
  };
}

/**
 * One INSERT with the allocation already decided (no second write, no re-read). The order is
 * built from what was written plus the columns' defaults rather than read back with RETURNING *:
 * that read-back was a fifth of the insert's cost. test/store/create-row.test.ts holds the two
 * equal. `seq` is the rowid SQLite gives the row (the largest + 1), so the entries of one second
 * fall in insertion order in orders_created_stats (migration 031).
 */
const INSERT = prepared(
  `INSERT INTO orders (rowid, trade_no, pid, out_trade_no, family, pay_type, name, amount, status, fail_reason, account_id, trade_amount,
                       notify_url, return_url, param, clientip, device, extra, created_at, expire_time, seq)
   VALUES ($seq, $trade_no, $pid, $out, $family, $pay_type, $name, $amount, $status, $reason, $acc, $ta,
           $notify, $return, $param, $ip, $device, $extra, $now, $expire, $seq)
   ON CONFLICT (trade_no) DO NOTHING`,
);
const NEXT_SEQ = prepared("SELECT COALESCE(MAX(rowid), 0) + 1 AS n FROM orders");

/**
 * The order's place in the sequence is its rowid (the largest + 1), and its stored key is made of
 * it (order-keys.ts), so both the table and its primary index only grow at their end. A place
 * whose public number an older order already has is skipped.
 */
function insert(db: Database, u: CreateOrderUnit, p: Placement): Order {
  const stmt = INSERT(db);
  const values = fields(u, p);
  const day = tradeDay(u.now * 1000);
  for (let seq = (NEXT_SEQ(db).get() as { n: number }).n; ; seq++) {
    const stored = newStoredTradeNo(db, day, seq);
    if (stored !== null && stmt.run({ ...values, seq, trade_no: stored }).changes === 1) return insertedOrder(publicTradeNo(stored), u, p);
  }
}

/**
 * One write transaction: idempotency check, allocation, then the insert (or the retry of a failed
 * row) written once with its account and trade_amount. Inside a group commit it is a savepoint of
 * the batch's transaction, and `candidates` is the batch's shared read of the accounts.
 */
export function createOrder(db: Database, u: CreateOrderUnit, candidates: CandidatesInTransaction | null = null): CreateOrderResult {
  return inTransaction(db, () => createIn(db, u, candidates));
}

function createIn(db: Database, u: CreateOrderUnit, candidates: CandidatesInTransaction | null): CreateOrderResult {
  const existing = getOrderByOutTradeNo(db, u.order.pid, u.order.outTradeNo);
  if (!existing) {
    const p = place(db, u.allocate, candidates);
    return { kind: "created", order: insert(db, u, p), account: p.account };
  }
  const d = u.onExisting(existing);
  if (d.kind === "error") return { kind: "error", reason: d.reason };
  if (d.kind === "return") return { kind: "existing", order: existing, account: existing.accountId === null ? null : getChannel(db, existing.accountId) };
  const p = place(db, u.allocate, candidates);
  const row = db
    .query(
      `UPDATE orders SET family = $family, pay_type = $pay_type, name = $name, amount = $amount, notify_url = $notify, return_url = $return,
         param = $param, clientip = $ip, device = $device, extra = $extra, created_at = $now, expire_time = $expire,
         status = $status, fail_reason = $reason, account_id = $acc, trade_amount = $ta
       WHERE trade_no = $t RETURNING *`,
    )
    .get({ ...fields(u, p), t: storedTradeNo(db, existing.tradeNo) }) as Row;
  return { kind: "created", order: toOrder(row), account: p.account };
}

export function chooseOrderPayType(db: Database, tradeNo: string, payType: string, now: number, allocate: AllocationRule) {
  const t = storedTradeNo(db, tradeNo);
  return db.transaction((): { ok: true; order: Order } | { ok: false; reason: string } => {
    const order = getOrder(db, t);
    if (!order) return { ok: false, reason: "order not found" };
    if (order.status !== 1 || now >= order.expireTime) return { ok: false, reason: "order is no longer payable" };
    if (order.payType !== "") return { ok: false, reason: "order already has a pay type" };
    db.query("UPDATE orders SET pay_type = $p WHERE trade_no = $t").run({ p: payType, t });
    const a = allocate(view(db, null));
    if (!a.ok) {
      db.query("UPDATE orders SET pay_type = '' WHERE trade_no = $t").run({ t });
      return { ok: false, reason: a.reason };
    }
    db.query("UPDATE orders SET account_id = $acc, trade_amount = $ta WHERE trade_no = $t").run({ acc: a.account.id, ta: a.tradeAmount, t });
    markUsed(db, a.account.id);
    return { ok: true, order: getOrder(db, t)! };
  }).immediate();
}

export function closeOrder(db: Database, tradeNo: string, now: number): boolean {
  const r = db
    .query("UPDATE orders SET status = 3, closed_at = $now WHERE trade_no = $t AND status = 1 AND expire_time > $now")
    .run({ t: storedTradeNo(db, tradeNo), now });
  return r.changes === 1;
}

export function expireOrders(db: Database, now: number, tally?: (family: string, payType: string, count: number) => void): number {
  if (!tally) return db.query("UPDATE orders SET status = 4 WHERE status = 1 AND expire_time <= $now").run({ now }).changes;
  const rows = db.query("UPDATE orders SET status = 4 WHERE status = 1 AND expire_time <= $now RETURNING family, pay_type").all({ now }) as { family: string; pay_type: string }[];
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(`${r.family}\n${r.pay_type}`, (counts.get(`${r.family}\n${r.pay_type}`) ?? 0) + 1);
  for (const [k, n] of counts) tally(k.split("\n")[0]!, k.split("\n")[1]!, n);
  return rows.length;
}
