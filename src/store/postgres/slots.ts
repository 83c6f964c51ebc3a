// Which orders hold a payable amount on an account, on PostgreSQL: the one statement of the rule,
// read by the allocator (channels.ts takenTradeAmounts, inside the create's transaction) and by the
// operator's reserved-amounts view (store.slots), so the two can never disagree. It is SQLite's
// SLOT_HELD (../sqlite/slots.ts) in this driver's fragment form.
import type { SQL } from "bun";
import type { SlotStore } from "../../core/slots/store.ts";
import { toHeldSlot } from "../rows.ts";
import { groupMembers } from "./channels.ts";

type Row = Record<string, unknown>;

/**
 * Pending orders hold their slot; so do orders that ended within the match window: unpaid, so a
 * late payment is never credited to a newer order with the same amount, and paid, so a report of
 * the same payment sent again reads "already paid" instead of paying the next order. Written as
 * until when an order holds it (SQLite's HELD_UNTIL), the expression orders_slot indexes after the
 * account and the amount (migration 035): an exact amount is a seek to the orders that hold it.
 */
export function slotHeld(sql: SQL, unpaidSince: number) {
  return sql`(${heldUntil(sql)} >= ${unpaidSince})`;
}

/** Until when an order holds its amount: orders_slot's third column (035). */
export const heldUntil = (sql: SQL) => sql`CASE status WHEN 1 THEN expire_time WHEN 4 THEN expire_time WHEN 3 THEN closed_at WHEN 2 THEN paid_at END`;

export function postgresSlots(db: () => Promise<SQL>): SlotStore {
  return {
    heldSlots: async (accountId, unpaidSince, o) => {
      const sql = await db();
      const cols = sql`trade_amount, account_id, trade_no, out_trade_no, pid, amount, status, created_at, expire_time, paid_at, closed_at`;
      // A range walks orders_slot by amount; the whole view walks by time (SQLite's
      // slotsHeldByTime, ../sqlite/slots.ts, says why and why closed orders need no arm of their own).
      const rows = o.range
        ? await sql`
            SELECT ${cols} FROM orders
            WHERE account_id IN (${groupMembers(sql, accountId)}) AND trade_amount BETWEEN ${o.range.min} AND ${o.range.max} AND ${slotHeld(sql, unpaidSince)}
            ORDER BY trade_amount, trade_no LIMIT ${o.limit}`
        : await sql`
            WITH g(id) AS (${groupMembers(sql, accountId)})
            SELECT ${cols} FROM orders WHERE status IN (1, 3, 4) AND expire_time >= ${unpaidSince} AND (status <> 3 OR closed_at >= ${unpaidSince})
              AND account_id IN (SELECT id FROM g)
            UNION ALL
            SELECT ${cols} FROM g JOIN orders ON account_id = g.id WHERE status = 2 AND paid_at >= ${unpaidSince}
            ORDER BY trade_amount, trade_no LIMIT ${o.limit}`;
      return (rows as Row[]).map(toHeldSlot);
    },
  };
}
