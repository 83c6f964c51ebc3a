// One create on PostgreSQL in one round trip (create-batch.ts runs creates in batches of these, and
// this file's call for the units a batch could not settle): one prepared call of xpay_create_order (migration
// 026), which takes the out_trade_no lock, looks the order up, runs the allocation rule over the
// report group it locks, stamps the account and inserts, all in the call's own transaction. The
// previous unit (orders.ts) made six to ten round trips while holding its account's lock, so
// creates of one pay type queued behind the network and the application's event loop; here a lock
// lives for the function's few statements and its commit. A rule that carries no data (a test's
// own rule; AllocationRequest in core/allocation.ts) still runs through the replayed view.
import type { SQL } from "bun";
import { NEAR } from "../../core/allocation.ts";
import type { CreateOrderResult, CreateOrderUnit } from "../../core/store.ts";
import type { ChannelAccount, Order } from "../../core/types.ts";
import { insertedOrder } from "../created-order.ts";
import { toChannel, toOrder } from "../rows.ts";
import { createOrderReplayed } from "./orders.ts";
import { retried, sqlState } from "./tx.ts";

type Row = Record<string, unknown>;

/** Raised by the function: it passed over busy accounts while holding a full one; call again, waiting. */
const ACCOUNTS_BUSY = "XP001";
/** Raised by the function: every trade_no drawn was taken; draw new ones. */
const TRADE_NO_TAKEN = "XP002";
/** Another create inserted the same new trade_no at the same moment: draw new ones. */
const UNIQUE_VIOLATION = "23505";
/** trade_nos drawn per call: a collision needs the same second and the same six random digits. */
const DRAWS = 3;

/** How long the created orders held their account inside the function, summed (bench/pg-creates.ts reads it). */
export const lockHold = { creates: 0, micros: 0 };

function call(sql: SQL, u: CreateOrderUnit, waiting: boolean) {
  const o = u.order;
  const r = u.allocate?.request;
  const tradeNos = Array.from({ length: DRAWS }, () => u.newTradeNo());
  return sql`
    SELECT outcome, trade_no, status, fail_reason, account_id, trade_amount, order_row, account_row, held_us FROM xpay_create_order(
      ${tradeNos}::text[], ${o.pid}, ${o.outTradeNo}, ${o.family}, ${o.payType}, ${o.name}, ${o.amount},
      ${o.notifyUrl}, ${o.returnUrl}, ${o.param}, ${o.clientip}, ${o.device}, ${JSON.stringify(o.extra)}, ${u.now}, ${u.expireTime},
      ${r !== undefined}, ${r?.dayStart ?? 0}, ${r?.maxOffset ?? 0}, ${Math.min(r?.maxOffset ?? 0, NEAR)}, ${r?.policy.direction === "up" ? 1 : -1},
      ${u.now - (r?.policy.matchWindow ?? 0)}, ${r?.policy.requireOnline ?? false}, ${r?.policy.heartbeatTimeout ?? 0},
      ${r?.onlyAccountId ?? null}::bigint, ${waiting})`;
}

const channel = (row: unknown): ChannelAccount | null => (row ? toChannel(row as Row) : null);

/** One call; again waiting when the function gave up holding a busy account; again with new trade_nos on a collision. */
async function run(sql: SQL, u: CreateOrderUnit): Promise<Row> {
  let waiting = false;
  for (let attempt = 1; ; attempt++) {
    try {
      // A lone statement needs no BEGIN: the call is its own transaction and its only round trip.
      const rows = await retried(() => call(sql, u, waiting));
      return rows[0] as Row;
    } catch (e) {
      const state = sqlState(e);
      if (attempt >= 8 || (state !== ACCOUNTS_BUSY && state !== TRADE_NO_TAKEN && state !== UNIQUE_VIOLATION)) throw e;
      if (state === ACCOUNTS_BUSY) waiting = true;
    }
  }
}

/** A unit alone: today's one call (the batch's busy and failing units, create-batch.ts). */
export async function createOrder(sql: SQL, u: CreateOrderUnit): Promise<CreateOrderResult> {
  if (u.allocate && !u.allocate.request) return createOrderReplayed(sql, u);
  const row = await run(sql, u);
  if (row.outcome === "created") {
    lockHold.creates++;
    lockHold.micros += Number(row.held_us);
  }
  return answer(sql, u, row);
}

/** A row of xpay_create_order (or of the batch's xpay_create_orders) as the core's answer. */
export async function answer(sql: SQL, u: CreateOrderUnit, row: Row): Promise<CreateOrderResult> {
  if (row.outcome === "created") {
    // A new row is built from what was sent (not read back); a retried failed row comes back whole.
    const placed = { acc: row.account_id === null ? null : Number(row.account_id), ta: row.trade_amount === null ? null : Number(row.trade_amount), status: Number(row.status) as 1 | 5, reason: String(row.fail_reason) };
    const order = row.order_row ? toOrder(row.order_row as Row) : insertedOrder(String(row.trade_no), u, placed);
    return { kind: "created", order, account: channel(row.account_row) };
  }
  const order: Order = toOrder(row.order_row as Row);
  const d = u.onExisting(order);
  if (d.kind === "error") return { kind: "error", reason: d.reason };
  if (d.kind === "return") return { kind: "existing", order, account: channel(row.account_row) };
  // The core asked to retry a row the function returned (it retries failed rows only): the view's way.
  return createOrderReplayed(sql, u);
}
