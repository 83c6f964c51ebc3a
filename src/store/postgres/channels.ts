// Receiving accounts on PostgreSQL, and the allocation view the create unit gives the core's rule.
import type { SQL } from "bun";
import type { AllocationView, CandidateAccount } from "../../core/allocation.ts";
import type { ChannelInput } from "../../core/store.ts";
import type { ChannelAccount } from "../../core/types.ts";
import { toChannel } from "../sqlite/rows.ts";
import type { Answers } from "./replay.ts";
import { slotHeld } from "./slots.ts";

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
 * The accounts a create may take, locked (in id order, so two creates never wait on each other in
 * a circle) until the create commits: a create on another instance that could take one of them
 * waits, and then reads the slots this one took. Today's paid sum only where a daily limit needs it.
 */
async function lockedCandidates(sql: SQL, pid: number, payType: string, dayStart: number): Promise<CandidateAccount[]> {
  const rows = await sql`
    SELECT a.*, CASE WHEN a.day_amount > 0 THEN COALESCE((SELECT SUM(o.trade_amount) FROM orders o
                       WHERE o.account_id = a.id AND o.status = 2 AND o.paid_at >= ${dayStart}), 0) ELSE 0 END AS paid_today
    FROM channel_accounts a
    WHERE a.enabled = 1 AND a.pay_type = ${payType} AND a.pid IN (0, ${pid})
    ORDER BY a.id FOR UPDATE OF a`;
  return rows.map((r: Row) => ({ ...toChannel(r), paidToday: Number(r.paid_today) }));
}

async function takenTradeAmounts(sql: SQL, accountId: number, unpaidSince: number, range: { min: number; max: number }): Promise<Set<number>> {
  // What holds a slot is stated once (slots.ts), for this search and the operator's view alike.
  const rows = await sql`
    SELECT trade_amount FROM orders
    WHERE account_id = ${accountId} AND trade_amount BETWEEN ${range.min} AND ${range.max} AND ${slotHeld(sql, unpaidSince)}`;
  return new Set(rows.map((r: Row) => Number(r.trade_amount)));
}

/** The allocation rule's view (core/allocation.ts) over answers fetched in the create's transaction. */
export function allocationView(tx: SQL, answers: Answers): AllocationView {
  return {
    candidateAccounts: (pid, payType, dayStart) =>
      answers.ask(`accounts\0${pid}\0${payType}\0${dayStart}`, () => lockedCandidates(tx, pid, payType, dayStart)).map((a) => ({ ...a })),
    takenTradeAmounts: (accountId, since, range) =>
      answers.ask(`taken\0${accountId}\0${since}\0${range.min}\0${range.max}`, () => takenTradeAmounts(tx, accountId, since, range)),
  };
}

/** Moves the account to the back of the round-robin: the sequence never hands out a stamp twice. */
export async function markUsed(sql: SQL, id: number): Promise<number> {
  const [row] = await sql`UPDATE channel_accounts SET use_seq = nextval('channel_accounts_use_seq') WHERE id = ${id} RETURNING use_seq`;
  return Number(row.use_seq);
}
