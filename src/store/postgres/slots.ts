// Which orders hold a payable amount on an account, on PostgreSQL: the one statement of the rule,
// read by the allocator (channels.ts takenTradeAmounts, inside the create's transaction) and by the
// operator's reserved-amounts view (store.slots), so the two can never disagree. It is SQLite's
// SLOT_HELD (../sqlite/slots.ts) in this driver's fragment form.
import type { SQL } from "bun";
import type { SlotStore } from "../../core/slots/store.ts";
import { toHeldSlot } from "../sqlite/slots.ts";
import { groupMembers } from "./channels.ts";

type Row = Record<string, unknown>;

/**
 * Pending orders hold their slot; so do orders that ended within the match window: unpaid, so a
 * late payment is never credited to a newer order with the same amount, and paid, so a report of
 * the same payment sent again reads "already paid" instead of paying the next order. Every column
 * is in the orders_slot index (migrations 003, 004).
 */
export function slotHeld(sql: SQL, unpaidSince: number) {
  return sql`(
    (status = 1 AND expire_time >= ${unpaidSince})
    OR (status = 4 AND expire_time >= ${unpaidSince})
    OR (status = 3 AND closed_at >= ${unpaidSince})
    OR (status = 2 AND paid_at >= ${unpaidSince}))`;
}

export function postgresSlots(db: () => Promise<SQL>): SlotStore {
  return {
    heldSlots: async (accountId, unpaidSince, o) => {
      const sql = await db();
      const range = o.range ?? { min: 0, max: Number.MAX_SAFE_INTEGER };
      const rows = await sql`
        SELECT trade_amount, account_id, trade_no, out_trade_no, pid, amount, status, created_at, expire_time, paid_at, closed_at FROM orders
        WHERE account_id IN (${groupMembers(sql, accountId)}) AND trade_amount BETWEEN ${range.min} AND ${range.max} AND ${slotHeld(sql, unpaidSince)}
        ORDER BY trade_amount, trade_no LIMIT ${o.limit}`;
      return (rows as Row[]).map(toHeldSlot);
    },
  };
}
