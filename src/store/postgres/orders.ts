// Orders on PostgreSQL: the create unit (idempotency, allocation, insert) and the order reads and
// state changes. Several instances create at once, so the unit serializes what SQLite's single
// writer serialized for free: one merchant's out_trade_no (an advisory lock), and the account the
// order takes (a row lock taken by the allocation view before it reads the amounts held there,
// kept until commit).
import type { SQL } from "bun";
import type { AllocationRule } from "../../core/allocation.ts";
import type { CreateOrderResult, CreateOrderUnit, OrderFilter } from "../../core/store.ts";
import type { ChannelAccount, Order } from "../../core/types.ts";
import { toOrder } from "../rows.ts";
import { allocationView, getChannel, markUsed } from "./channels.ts";
import { Answers, replay } from "./replay.ts";
import { lock, Lock, unit } from "./tx.ts";

type Row = Record<string, unknown>;

export async function getOrder(sql: SQL, tradeNo: string, o: { forUpdate?: boolean } = {}): Promise<Order | null> {
  const rows = o.forUpdate ? await sql`SELECT * FROM orders WHERE trade_no = ${tradeNo} FOR UPDATE` : await sql`SELECT * FROM orders WHERE trade_no = ${tradeNo}`;
  return rows.length ? toOrder(rows[0]) : null;
}

export async function getOrderByOutTradeNo(sql: SQL, pid: number, outTradeNo: string): Promise<Order | null> {
  const rows = await sql`SELECT * FROM orders WHERE pid = ${pid} AND out_trade_no = ${outTradeNo}`;
  return rows.length ? toOrder(rows[0]) : null;
}

export async function listOrders(sql: SQL, f: OrderFilter): Promise<Order[]> {
  const rows = await sql`
    SELECT * FROM orders WHERE (${f.pid ?? null}::bigint IS NULL OR pid = ${f.pid ?? null}) AND (${f.status ?? null}::int IS NULL OR status = ${f.status ?? null})
    ORDER BY created_at DESC, trade_no DESC LIMIT ${f.limit ?? 50} OFFSET ${f.offset ?? 0}`;
  return rows.map(toOrder);
}

interface Placement {
  account: ChannelAccount | null;
  acc: number | null;
  ta: number | null;
  status: 1 | 5;
  reason: string;
}

/** The quick allocation locked an account (full), passed over busy ones and found nothing: the unit runs again, waiting. */
class AccountsBusy extends Error {}

type Mode = "quick" | "waiting";

/**
 * Runs the core's allocation rule (replay.ts) and stamps the account taken. "quick" (first): the
 * create locks only the account it takes and passes over those other creates hold (channels.ts
 * allocationView). When that finds nothing and an account was passed over, a busy account must
 * not be mistaken for a full one, so the rule runs again "waiting" for every candidate's lock, in
 * id order. Right here when the quick run locked nothing (the common case: every account was
 * busy); when it did lock one (which turned out full), the transaction is given up first, so that
 * no lock is ever held out of id order while waiting (that deadlocked).
 */
async function place(tx: SQL, allocate: AllocationRule | null, mode: Mode): Promise<Placement> {
  if (!allocate) return { account: null, acc: null, ta: null, status: 1, reason: "" };
  const busy = { seen: false, held: false };
  const answers = new Answers();
  let a = await replay(() => allocate(allocationView(tx, answers, mode, busy)), answers);
  if (!a.ok && busy.seen && busy.held) throw new AccountsBusy();
  if (!a.ok && busy.seen) {
    const waiting = new Answers();
    a = await replay(() => allocate(allocationView(tx, waiting, "waiting")), waiting);
  }
  if (!a.ok) return { account: null, acc: null, ta: null, status: 5, reason: a.reason };
  const useSeq = await markUsed(tx, a.account.id);
  return { account: { ...a.account, useSeq }, acc: a.account.id, ta: a.tradeAmount, status: 1, reason: "" };
}

/** Runs an allocating unit quickly, and once more waiting when the quick run found every account busy. */
async function allocating<T>(sql: SQL, work: (tx: SQL, mode: Mode) => Promise<T>): Promise<T> {
  try {
    return await unit(sql, (tx) => work(tx, "quick"));
  } catch (e) {
    if (!(e instanceof AccountsBusy)) throw e;
    return unit(sql, (tx) => work(tx, "waiting"));
  }
}

async function insert(tx: SQL, u: CreateOrderUnit, p: Placement): Promise<Order> {
  const o = u.order;
  for (;;) {
    const tradeNo = u.newTradeNo();
    const rows = await tx`
      INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, fail_reason, account_id, trade_amount,
                          notify_url, return_url, param, clientip, device, extra, created_at, expire_time)
      VALUES (${tradeNo}, ${o.pid}, ${o.outTradeNo}, ${o.family}, ${o.payType}, ${o.name}, ${o.amount}, ${p.status}, ${p.reason}, ${p.acc}, ${p.ta},
              ${o.notifyUrl}, ${o.returnUrl}, ${o.param}, ${o.clientip}, ${o.device}, ${JSON.stringify(o.extra)}, ${u.now}, ${u.expireTime})
      ON CONFLICT (trade_no) DO NOTHING RETURNING *`;
    if (rows.length === 1) return toOrder(rows[0]);
    // else a trade_no collision: draw again
  }
}

/** A create retried on the row of a failed one (status 5): the same row, allocated again. */
async function retry(tx: SQL, u: CreateOrderUnit, existing: Order, p: Placement): Promise<Order> {
  const o = u.order;
  const [row] = await tx`
    UPDATE orders SET family = ${o.family}, pay_type = ${o.payType}, name = ${o.name}, amount = ${o.amount}, notify_url = ${o.notifyUrl},
      return_url = ${o.returnUrl}, param = ${o.param}, clientip = ${o.clientip}, device = ${o.device}, extra = ${JSON.stringify(o.extra)},
      created_at = ${u.now}, expire_time = ${u.expireTime}, status = ${p.status}, fail_reason = ${p.reason}, account_id = ${p.acc}, trade_amount = ${p.ta}
    WHERE trade_no = ${existing.tradeNo} RETURNING *`;
  return toOrder(row);
}

/**
 * The create for a rule that carries no data (create.ts runs every other one in one call).
 * One transaction: the merchant's out_trade_no locked (a copy of this create on another instance
 * waits here, then finds this order), the idempotency decision, the allocation, the insert.
 */
export function createOrderReplayed(sql: SQL, u: CreateOrderUnit): Promise<CreateOrderResult> {
  return allocating(sql, async (tx, mode): Promise<CreateOrderResult> => {
    await lock(tx, Lock.outTradeNo, `${u.order.pid}\n${u.order.outTradeNo}`);
    const existing = await getOrderByOutTradeNo(tx, u.order.pid, u.order.outTradeNo);
    if (!existing) {
      const p = await place(tx, u.allocate, mode);
      return { kind: "created", order: await insert(tx, u, p), account: p.account };
    }
    const d = u.onExisting(existing);
    if (d.kind === "error") return { kind: "error", reason: d.reason };
    if (d.kind === "return") return { kind: "existing", order: existing, account: existing.accountId === null ? null : await getChannel(tx, existing.accountId) };
    const p = await place(tx, u.allocate, mode);
    return { kind: "created", order: await retry(tx, u, existing, p), account: p.account };
  });
}

export function chooseOrderPayType(sql: SQL, tradeNo: string, payType: string, now: number, allocate: AllocationRule) {
  return allocating(sql, async (tx, mode): Promise<{ ok: true; order: Order } | { ok: false; reason: string }> => {
    const order = await getOrder(tx, tradeNo, { forUpdate: true });
    if (!order) return { ok: false, reason: "order not found" };
    if (order.status !== 1 || now >= order.expireTime) return { ok: false, reason: "order is no longer payable" };
    if (order.payType !== "") return { ok: false, reason: "order already has a pay type" };
    const p = await place(tx, allocate, mode);
    if (p.status !== 1) return { ok: false, reason: p.reason };
    const [row] = await tx`UPDATE orders SET pay_type = ${payType}, account_id = ${p.acc}, trade_amount = ${p.ta} WHERE trade_no = ${tradeNo} RETURNING *`;
    return { ok: true, order: toOrder(row) };
  });
}

export async function closeOrder(sql: SQL, tradeNo: string, now: number): Promise<boolean> {
  const r = await sql`UPDATE orders SET status = 3, closed_at = ${now} WHERE trade_no = ${tradeNo} AND status = 1 AND expire_time > ${now}`;
  return r.count === 1;
}

/** Orders one sweep statement times out: its own transaction, so its row locks last one batch. */
export const EXPIRY_BATCH = 1000;

/**
 * Status 4 for pending orders past expire_time, in batches of EXPIRY_BATCH, each its own statement
 * and transaction: a backlog (a server down for hours) never becomes one transaction locking every
 * row of it while creates and payments wait. Rows another instance's sweep holds are skipped, not
 * waited for: two sweeps share the work instead of queueing behind each other.
 */
export async function expireOrders(sql: SQL, now: number, tally?: (family: string, payType: string, count: number) => void, batch = EXPIRY_BATCH): Promise<number> {
  const counts = new Map<string, { family: string; payType: string; n: number }>();
  let total = 0;
  for (;;) {
    const rows = await sql`
      UPDATE orders SET status = 4
      WHERE trade_no IN (SELECT trade_no FROM orders WHERE status = 1 AND expire_time <= ${now} LIMIT ${batch} FOR UPDATE SKIP LOCKED)
        AND status = 1
      RETURNING family, pay_type`;
    total += rows.length;
    for (const r of rows as Row[]) {
      const key = `${r.family}\n${r.pay_type}`;
      const c = counts.get(key) ?? { family: String(r.family), payType: String(r.pay_type), n: 0 };
      c.n++;
      counts.set(key, c);
    }
    if (rows.length < batch) break;
  }
  if (tally) for (const c of counts.values()) tally(c.family, c.payType, c.n);
  return total;
}
