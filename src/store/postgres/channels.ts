// Receiving accounts on PostgreSQL, and the allocation view the create unit gives the core's rule.
import type { SQL } from "bun";
import { type AllocationView, type CandidateAccount, WALK_PER_AMOUNT } from "../../core/allocation.ts";
import type { ChannelInput } from "../../core/store.ts";
import type { ChannelAccount } from "../../core/types.ts";
import { toChannel } from "../rows.ts";
import type { Answers } from "./replay.ts";
import { heldUntil, slotHeld } from "./slots.ts";

type Row = Record<string, unknown>;

export async function addChannel(sql: SQL, c: ChannelInput & { now: number }): Promise<ChannelAccount> {
  const [row] = await sql`
    INSERT INTO channel_accounts (pid, pay_type, code, name, remark, qrcode, scheme, min_amount, max_amount, day_amount, sort, created_at)
    VALUES (${c.pid}, ${c.payType}, ${c.code}, ${c.name}, ${c.remark ?? ""}, ${c.qrcode}, ${c.scheme ?? ""}, ${c.minAmount ?? 0},
            ${c.maxAmount ?? 0}, ${c.dayAmount ?? 0}, ${c.sort ?? 0}, ${c.now})
    RETURNING *`;
  return toChannel(row);
}

export async function getChannel(sql: SQL, id: number, o: { forUpdate?: boolean } = {}): Promise<ChannelAccount | null> {
  const rows = o.forUpdate ? await sql`SELECT * FROM channel_accounts WHERE id = ${id} FOR UPDATE` : await sql`SELECT * FROM channel_accounts WHERE id = ${id}`;
  return rows.length ? toChannel(rows[0]) : null;
}

/** `pid` lists one owner's accounts; `usableBy` lists a merchant's own plus the shared ones. */
export async function listChannels(sql: SQL, filter: { pid?: number; usableBy?: number } = {}): Promise<ChannelAccount[]> {
  let rows: Row[];
  if (filter.usableBy !== undefined) rows = await sql`SELECT * FROM channel_accounts WHERE pid IN (0, ${filter.usableBy}) ORDER BY sort, id`;
  else if (filter.pid !== undefined) rows = await sql`SELECT * FROM channel_accounts WHERE pid = ${filter.pid} ORDER BY sort, id`;
  else rows = await sql`SELECT * FROM channel_accounts ORDER BY id`;
  return rows.map(toChannel);
}

export async function updateChannel(sql: SQL, id: number, patch: Partial<Pick<ChannelAccount, "enabled" | "lastSeenAt">>): Promise<ChannelAccount | null> {
  const enabled = patch.enabled === undefined ? null : patch.enabled ? 1 : 0;
  const rows = await sql`
    UPDATE channel_accounts SET enabled = COALESCE(${enabled}::int, enabled), last_seen_at = COALESCE(${patch.lastSeenAt ?? null}::bigint, last_seen_at)
    WHERE id = ${id} RETURNING *`;
  return rows.length ? toChannel(rows[0]) : null;
}

/**
 * The accounts a create may take. `lock`: all of them, in id order (so two creates never wait on
 * each other in a circle), until the create commits: the slow path, when the quick one found every
 * account it could use held by other creates. Otherwise read without locks; the account the rule
 * settles on is locked by `claim` before its amounts are read. Today's paid sum only where a daily
 * limit needs it (payments change it, not creates).
 */
async function candidates(sql: SQL, pid: number, payType: string, dayStart: number, lock: boolean): Promise<CandidateAccount[]> {
  // Waiting: the candidates and every account of their report groups, locked in id order first.
  if (lock) {
    await sql`
      SELECT id FROM channel_accounts
      WHERE (enabled = 1 AND pay_type = ${payType} AND pid IN (0, ${pid}))
         OR report_group IN (SELECT report_group FROM channel_accounts WHERE enabled = 1 AND pay_type = ${payType} AND pid IN (0, ${pid}) AND report_group > 0)
      ORDER BY id FOR UPDATE`;
  }
  const rows = await sql`
    SELECT a.*, CASE WHEN a.day_amount > 0 THEN COALESCE((SELECT SUM(o.trade_amount) FROM orders o
                       WHERE o.account_id = a.id AND o.status = 2 AND o.paid_at >= ${dayStart}), 0) ELSE 0 END AS paid_today
    FROM channel_accounts a
    WHERE a.enabled = 1 AND a.pay_type = ${payType} AND a.pid IN (0, ${pid})
    ORDER BY a.id`;
  return rows.map((r: Row) => ({ ...toChannel(r), paidToday: Number(r.paid_today) }));
}

/** The ids of account `id`'s report group, itself included (itself alone while never computed). */
export const groupMembers = (sql: SQL, id: number) => sql`
  SELECT ${id}::bigint AS id UNION SELECT m.id FROM channel_accounts a JOIN channel_accounts m ON m.report_group = a.report_group
  WHERE a.id = ${id} AND a.report_group > 0`;

/**
 * Locks the account's whole report group for this create without waiting: not ok when another
 * create (or an operator's edit, or a heartbeat) holds one of its rows, or the account was disabled
 * since the candidates were read. Held until commit, so the amounts read next include every order
 * another create committed on the group. `locked` says whether any row was taken. One round trip.
 */
async function claim(sql: SQL, id: number, payType: string): Promise<{ ok: boolean; locked: boolean }> {
  const rows = await sql`
    SELECT c.id, c.enabled, c.pay_type, (SELECT count(*) FROM (${groupMembers(sql, id)}) g) AS size
    FROM channel_accounts c WHERE c.id IN (${groupMembers(sql, id)}) ORDER BY c.id FOR UPDATE OF c SKIP LOCKED`;
  const self = rows.find((r: Row) => Number(r.id) === id);
  const ok = rows.length > 0 && rows.length === Number(rows[0].size) && self !== undefined && Number(self.enabled) === 1 && self.pay_type === payType;
  return { ok, locked: rows.length > 0 };
}

/**
 * The held amounts of the group in the range, as SQLite's takenTradeAmounts reads them: a walk of
 * the range while it holds at most WALK_PER_AMOUNT orders an amount, else each amount looked up
 * (orders_slot's third column is until when an order holds its amount, migration 035).
 */
async function takenTradeAmounts(sql: SQL, accountId: number, unpaidSince: number, range: { min: number; max: number }): Promise<Set<number>> {
  // What holds a slot is stated once (slots.ts), for this search and the operator's view alike.
  const cap = WALK_PER_AMOUNT * (range.max - range.min + 1);
  // One account at a time in the index's order, so the scan stops at the limit (a bitmap of the
  // group's range, which the planner chose with statistics, reads every entry first: migration 036).
  const walked = await sql`
    SELECT w.trade_amount, w.held FROM (${groupMembers(sql, accountId)}) g(id) CROSS JOIN LATERAL (
      SELECT trade_amount, ${slotHeld(sql, unpaidSince)} AS held FROM orders
      WHERE account_id = g.id AND trade_amount BETWEEN ${range.min} AND ${range.max} ORDER BY trade_amount LIMIT ${cap}) w
    LIMIT ${cap}`;
  if (walked.length < cap) return new Set(walked.filter((r: Row) => r.held).map((r: Row) => Number(r.trade_amount)));
  // Each amount in the index's order too (a plain EXISTS was planned as a read of the whole table: 036).
  const held = await sql`
    SELECT x FROM generate_series(${range.min}::bigint, ${range.max}::bigint) x
    WHERE EXISTS (SELECT 1 FROM (${groupMembers(sql, accountId)}) g(id) CROSS JOIN LATERAL (
      SELECT 1 FROM orders WHERE account_id = g.id AND trade_amount = x AND ${slotHeld(sql, unpaidSince)} ORDER BY ${heldUntil(sql)} LIMIT 1) h)`;
  return new Set(held.map((r: Row) => Number(r.x)));
}

/** Every amount of the range: what an account another create holds looks like to the rule (full). */
function everyAmount(range: { min: number; max: number }): Set<number> {
  const all = new Set<number>();
  for (let v = range.min; v <= range.max; v++) all.add(v);
  return all;
}

/**
 * The allocation rule's view (core/allocation.ts) over answers fetched in the create's transaction.
 * "quick": creates lock only the account they take, and an account another create holds looks
 * full, so the rule takes the next one: creates of one pay type on several instances run side by
 * side on different accounts. `busy` hears whether an account was passed over that way (`seen`)
 * and whether one was locked (`held`); the create runs the rule again "waiting" when the quick run
 * found nothing (orders.ts place). "waiting": every candidate locked up front, in id order.
 */
export function allocationView(tx: SQL, answers: Answers, mode: "quick" | "waiting", busy: { seen: boolean; held: boolean } = { seen: false, held: false }): AllocationView {
  let payTypeAsked = "";
  return {
    candidateAccounts: (pid, payType, dayStart) => {
      payTypeAsked = payType;
      return answers.ask(`accounts\0${pid}\0${payType}\0${dayStart}`, () => candidates(tx, pid, payType, dayStart, mode === "waiting")).map((a) => ({ ...a }));
    },
    takenTradeAmounts: (accountId, since, range) => {
      if (mode === "quick") {
        const claimed = answers.ask(`claim\0${accountId}`, () => claim(tx, accountId, payTypeAsked));
        // A partly locked group counts as held: the waiting run must start from a new transaction.
        if (claimed.locked) busy.held = true;
        if (!claimed.ok) {
          busy.seen = true;
          return everyAmount(range);
        }
      }
      return answers.ask(`taken\0${accountId}\0${since}\0${range.min}\0${range.max}`, () => takenTradeAmounts(tx, accountId, since, range));
    },
  };
}

/** Moves the account to the back of the round-robin: the sequence never hands out a stamp twice. */
export async function markUsed(sql: SQL, id: number): Promise<number> {
  const [row] = await sql`UPDATE channel_accounts SET use_seq = nextval('channel_accounts_use_seq') WHERE id = ${id} RETURNING use_seq`;
  return Number(row.use_seq);
}
