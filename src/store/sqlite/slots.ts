// Which orders hold a payable amount on an account: the one statement of the rule, read by the
// allocator (channels.ts takenTradeAmounts, inside the create's transaction) and by the operator's
// reserved-amounts view (store.slots), so the two can never disagree.
import type { Database } from "bun:sqlite";
import type { HeldSlot, SlotStore } from "../../core/slots/store.ts";
import { toHeldSlot } from "../rows.ts";
import { GROUP_MEMBERS } from "./channels.ts";

/**
 * Until when an order holds its payable amount: pending and timed-out orders until their expiry,
 * closed ones until they were closed, paid ones until they were paid, each for the match window
 * after it; a failed order never. orders_slot indexes this expression after the account and the
 * amount (migration 035), so an exact amount is looked up among the orders that still hold it
 * however many ended orders share it. The text must stay the index's, word for word: SQLite uses
 * an index on an expression only for the same expression (test/store/slot-plans.test.ts).
 */
export const HELD_UNTIL = "CASE status WHEN 1 THEN expire_time WHEN 4 THEN expire_time WHEN 3 THEN closed_at WHEN 2 THEN paid_at END";

/**
 * Pending orders hold their slot; so do orders that ended within the match window: unpaid, so a
 * late payment is never credited to a newer order with the same amount, and paid, so a report of
 * the same payment sent again reads "already paid" instead of paying the next order. Binds
 * `$unpaid_since`.
 */
export const SLOT_HELD = `(${HELD_UNTIL} >= $unpaid_since)`;

/**
 * SLOT_HELD in a form the time indexes serve, as two arms: orders_expiry (status, expire_time) for
 * the unpaid and orders_paid_day (account_id, paid_at) WHERE status = 2 for the paid (CROSS JOIN
 * makes SQLite walk the group's accounts first: with `IN` it walked every paid order by status). An order is
 * closed only while pending and before its expiry (orders.ts cancel), so closed_at >= since
 * implies expire_time >= since. Binds `$account` and `$unpaid_since`; `cols` are selected.
 */
export const slotsHeldByTime = (cols: string) => `
  WITH g(id) AS (${GROUP_MEMBERS})
  SELECT ${cols} FROM orders WHERE status IN (1, 3, 4) AND expire_time >= $unpaid_since AND (status <> 3 OR closed_at >= $unpaid_since)
    AND account_id IN g
  UNION ALL
  SELECT ${cols} FROM g CROSS JOIN orders ON account_id = g.id WHERE status = 2 AND paid_at >= $unpaid_since`;


export function heldSlots(db: Database, accountId: number, unpaidSince: number, o: { range?: { min: number; max: number }; limit: number }): HeldSlot[] {
  const cols = "trade_amount, account_id, trade_no, out_trade_no, pid, amount, status, created_at, expire_time, paid_at, closed_at";
  // A range (the allocator's price..price+offset, a probe) walks orders_slot by amount. The whole
  // view walks by time instead: walking every amount of an account with a million orders took
  // seconds, while the held orders are the few of the last match window. INDEXED BY: channels.ts
  // takenSql says why.
  const rows = o.range
    ? db
        .query(
          `SELECT ${cols} FROM orders INDEXED BY orders_slot
           WHERE account_id IN (${GROUP_MEMBERS}) AND trade_amount BETWEEN $min AND $max AND ${SLOT_HELD}
           ORDER BY trade_amount, trade_no LIMIT $limit`,
        )
        .all({ account: accountId, unpaid_since: unpaidSince, min: o.range.min, max: o.range.max, limit: o.limit })
    : db.query(`${slotsHeldByTime(cols)} ORDER BY trade_amount, trade_no LIMIT $limit`).all({ account: accountId, unpaid_since: unpaidSince, limit: o.limit });
  return (rows as Record<string, unknown>[]).map(toHeldSlot);
}

export function sqliteSlots(db: Database): SlotStore {
  return { heldSlots: async (accountId, since, o) => heldSlots(db, accountId, since, o) };
}
