import type { Database } from "bun:sqlite";
import { type CandidateAccount, WALK_PER_AMOUNT } from "../../core/allocation.ts";
import type { ChannelInput } from "../../core/store.ts";
import type { ChannelAccount } from "../../core/types.ts";
import { toChannel } from "../rows.ts";
import { HELD_UNTIL, SLOT_HELD } from "./slots.ts";
import { prepared } from "./statement.ts";

type Row = Record<string, unknown>;

export function addChannel(db: Database, c: ChannelInput & { now: number }): ChannelAccount {
  const row = db
    .query(
      `INSERT INTO channel_accounts (pid, pay_type, code, name, remark, qrcode, scheme, min_amount, max_amount, day_amount, sort, created_at)
       VALUES ($pid, $pay_type, $code, $name, $remark, $qrcode, $scheme, $min, $max, $day, $sort, $now) RETURNING *`,
    )
    .get({
      pid: c.pid,
      pay_type: c.payType,
      code: c.code,
      name: c.name,
      remark: c.remark ?? "",
      qrcode: c.qrcode,
      scheme: c.scheme ?? "",
      min: c.minAmount ?? 0,
      max: c.maxAmount ?? 0,
      day: c.dayAmount ?? 0,
      sort: c.sort ?? 0,
      now: c.now,
    }) as Row;
  return toChannel(row);
}

export function getChannel(db: Database, id: number): ChannelAccount | null {
  const row = db.query("SELECT * FROM channel_accounts WHERE id = $id").get({ id }) as Row | null;
  return row ? toChannel(row) : null;
}

/** `pid` lists one owner's accounts; `usableBy` lists a merchant's own plus the shared ones. */
export function listChannels(db: Database, filter: { pid?: number; usableBy?: number } = {}): ChannelAccount[] {
  if (filter.usableBy !== undefined) {
    return (db.query("SELECT * FROM channel_accounts WHERE pid IN (0, $pid) ORDER BY sort, id").all({ pid: filter.usableBy }) as Row[]).map(toChannel);
  }
  if (filter.pid !== undefined) {
    return (db.query("SELECT * FROM channel_accounts WHERE pid = $pid ORDER BY sort, id").all({ pid: filter.pid }) as Row[]).map(toChannel);
  }
  return (db.query("SELECT * FROM channel_accounts ORDER BY id").all() as Row[]).map(toChannel);
}

export function updateChannel(db: Database, id: number, patch: Partial<Pick<ChannelAccount, "enabled" | "lastSeenAt">>): ChannelAccount | null {
  const row = db
    .query(
      `UPDATE channel_accounts SET enabled = COALESCE($enabled, enabled), last_seen_at = COALESCE($seen, last_seen_at)
       WHERE id = $id RETURNING *`,
    )
    .get({ id, enabled: patch.enabled === undefined ? null : patch.enabled ? 1 : 0, seen: patch.lastSeenAt ?? null }) as Row | null;
  return row ? toChannel(row) : null;
}

const CANDIDATES = prepared(
  `SELECT a.*, CASE WHEN a.day_amount > 0 THEN COALESCE((SELECT SUM(r.paid_amount) FROM order_rollup_hour r
                          WHERE r.account_id = a.id AND r.bucket >= $day), 0) ELSE 0 END AS paid_today
   FROM channel_accounts a
   WHERE a.enabled = 1 AND a.pay_type = $pay_type AND a.pid IN (0, $pid)`,
);
const MAX_SEQ = prepared("SELECT MAX(use_seq) AS m FROM channel_accounts");
const SET_SEQ = prepared("UPDATE channel_accounts SET use_seq = $seq WHERE id = $id");

export function candidateAccounts(db: Database, pid: number, payType: string, dayStart: number): CandidateAccount[] {
  // Today's paid sum is read only for accounts that have a daily limit: the rule ignores it otherwise.
  // It is the rollup's (migration 025): at most a day of hours per merchant, however many orders
  // the account was paid today. The limit's day (China time) starts on a whole UTC hour.
  const rows = CANDIDATES(db).all({ pid, pay_type: payType, day: dayStart }) as Row[];
  return rows.map((r) => ({ ...toChannel(r), paidToday: Number(r.paid_today) }));
}

/**
 * Candidate accounts read once per write transaction and shared by the creates inside it (group
 * commit). Nothing else can write while that transaction is open, and payments run in
 * transactions of their own, so today's paid sums cannot move; `stamp` keeps each account's
 * round-robin stamp, in the database and here, as the creates take the accounts.
 */
export class CandidatesInTransaction {
  private readonly lists = new Map<string, CandidateAccount[]>();
  private readonly groups = new Map<number, number[]>();
  private lastSeq: number | null = null;

  read(db: Database, pid: number, payType: string, dayStart: number): CandidateAccount[] {
    const key = `${pid}\u0000${payType}\u0000${dayStart}`;
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = candidateAccounts(db, pid, payType, dayStart)));
    return list;
  }

  /** groupMembers, read once per transaction: only the operator's binding (outside it) moves a group. */
  members(db: Database, accountId: number): number[] {
    let ids = this.groups.get(accountId);
    if (!ids) {
      // An account of no group (report_group 0, as read with the candidates) is its own group.
      const listed = this.lists.values().flatMap((l) => l).find((a) => a.id === accountId);
      ids = listed && listed.reportGroup === 0 ? [accountId] : groupMembers(db, accountId);
      this.groups.set(accountId, ids);
    }
    return ids;
  }

  /** markUsed without reading the highest stamp again for every create. */
  stamp(db: Database, id: number): number {
    this.lastSeq ??= (MAX_SEQ(db).get() as { m: number | null }).m ?? 0;
    const useSeq = ++this.lastSeq;
    SET_SEQ(db).run({ seq: useSeq, id });
    for (const list of this.lists.values()) for (const a of list) if (a.id === id) a.useSeq = useSeq;
    return useSeq;
  }

  /** A unit was rolled back: its stamps went with it, so read again. */
  forget(): void {
    this.lists.clear();
    this.groups.clear();
    this.lastSeq = null;
  }
}

/** The ids of the account `$account`'s report group (itself included). */
export const GROUP_MEMBERS = `SELECT $account UNION SELECT m.id FROM channel_accounts a JOIN channel_accounts m ON m.report_group = a.report_group
  WHERE a.id = $account AND a.report_group > 0`;

// The group's other members. Not GROUP_MEMBERS (its UNION with a constant row built a temp b-tree
// on every execution), nor a self-join (11 µs where this takes under 1: SQLite's plan for the join
// costs more than the two index reads).
const MEMBERS = prepared(`SELECT id FROM channel_accounts WHERE report_group = (SELECT report_group FROM channel_accounts WHERE id = $account)
  AND report_group > 0 AND id <> $account`);

/** The account's report group (every account one report could mean), itself first. */
export function groupMembers(db: Database, accountId: number): number[] {
  const ids = [accountId];
  for (const r of MEMBERS(db).values({ account: accountId }) as [number][]) ids.push(Number(r[0]));
  return ids;
}

/**
 * The held amounts of one account in [min, max]. What holds a slot is stated once (slots.ts), for
 * this search and the operator's view alike. INDEXED BY: with no ANALYZE statistics SQLite chose an
 * OR over the status indexes and read every pending order on every create (5 ms at 20,000 pending).
 * One account per statement: with the report group as `IN (subquery)` SQLite built the subquery's
 * list on every execution, 16 µs against 0.7 µs for the range itself (a fifth of a create's CPU).
 * Functions: slots.ts and this module import each other, so neither reads the other's constants
 * while it loads. Exported for the plan test.
 *
 * Two ways, one answer. The walk reads every order of the range in orders_slot, held or not: the
 * cheapest when amounts are spread (a few orders an amount). Where a shop sells at one price, its
 * amounts gather every ended order, and the walk grew with them (400,000 paid orders on 16 accounts
 * at five amounts: 507 µs a create against 73 on a new shop, 107 now; bench/hot-price.ts). So the walk stops after
 * WALK_PER_AMOUNT (core/allocation.ts) entries an amount of the range, and the amounts are then
 * looked up one by one, each a seek to the orders that still hold it (HELD_UNTIL is indexed after
 * the amount, 035). The walk's limit is an expression of the range: a bound `LIMIT $n` made SQLite
 * prepare the statement again on every run (6 µs against 1).
 */
export const takenSql = () => `SELECT count(*), group_concat(CASE WHEN held THEN trade_amount END) FROM (
    SELECT trade_amount, ${HELD_UNTIL} >= $unpaid_since AS held FROM orders INDEXED BY orders_slot
    WHERE account_id = $account AND trade_amount BETWEEN $min AND $max LIMIT ($max - $min + 1) * ${WALK_PER_AMOUNT})`;
export const takenByAmountSql = () => `WITH RECURSIVE amounts(x) AS (SELECT $min UNION ALL SELECT x + 1 FROM amounts WHERE x < $max)
  SELECT x FROM amounts WHERE EXISTS (SELECT 1 FROM orders INDEXED BY orders_slot WHERE account_id = $account AND trade_amount = amounts.x AND ${SLOT_HELD})`;

/** Whether the account holds one amount: a seek, as one step of takenByAmountSql. Exported for the plan test. */
export const heldAtSql = () =>
  `SELECT 1 FROM orders INDEXED BY orders_slot WHERE account_id = $account AND trade_amount = $amount AND ${SLOT_HELD} LIMIT 1`;

const TAKEN = prepared(takenSql);
const TAKEN_BY_AMOUNT = prepared(takenByAmountSql);
const HELD_AT = prepared(heldAtSql);

/**
 * Ranges whose walk reached its cap, per connection, with how many more reads go straight to the
 * lookups before the range is walked again. At a shop's one price the walk reads its cap of ended
 * orders on every create only to learn what the last create learned (about 14 µs of 107 on a long
 * history, bench/hot-price.ts). Both ways give one answer, so a mark can only cost time: a range
 * that thinned (retention deleted its history) is walked again after DENSE_READS reads.
 */
const denseRanges = new WeakMap<Database, Map<string, number>>();
export const DENSE_READS = 1024;
const DENSE_RANGES_MAX = 4096;

/** How many more reads of the range go straight to the lookups (undefined: it is walked). For the tests. */
export function denseReadsLeft(db: Database, account: number, range: { min: number; max: number }): number | undefined {
  return denseRanges.get(db)?.get(`${account}:${range.min}:${range.max}`);
}

function denseOf(db: Database): Map<string, number> {
  let m = denseRanges.get(db);
  if (!m) denseRanges.set(db, (m = new Map()));
  return m;
}

/**
 * The amounts held on the report group `members` (groupMembers) within the range, read by the
 * allocator. `first` (AllocationView.takenTradeAmounts): the ranges too dense to walk are then read
 * amount by amount from it, and only until the first amount no member holds; without it, every
 * amount of the range.
 */
export function takenTradeAmounts(db: Database, members: readonly number[], unpaidSince: number, range: { min: number; max: number }, first?: number): Set<number> {
  const taken = new Set<number>();
  const cap = WALK_PER_AMOUNT * (range.max - range.min + 1);
  const dense = denseOf(db);
  const lookUp: number[] = [];
  for (const account of members) {
    const key = `${account}:${range.min}:${range.max}`;
    const left = dense.get(key);
    if (left !== undefined && left > 0) {
      dense.set(key, left - 1);
      lookUp.push(account);
      continue;
    }
    const [[walked, held]] = TAKEN(db).values({ account, unpaid_since: unpaidSince, min: range.min, max: range.max }) as [[number, string | null]];
    if (walked < cap) {
      if (left !== undefined) dense.delete(key);
      if (held !== null) for (const amount of held.split(",")) taken.add(Number(amount));
      continue;
    }
    if (dense.size >= DENSE_RANGES_MAX) dense.clear();
    dense.set(key, DENSE_READS);
    lookUp.push(account);
  }
  if (lookUp.length === 0) return taken;
  if (first !== range.min && first !== range.max) {
    for (const account of lookUp) {
      for (const [amount] of TAKEN_BY_AMOUNT(db).values({ account, unpaid_since: unpaidSince, min: range.min, max: range.max }) as [number][]) taken.add(Number(amount));
    }
    return taken;
  }
  // From `first` towards the other end, until an amount that neither a walked member (taken
  // already) nor a looked-up one holds: the rule's choice; the amounts past it are never asked.
  const step = first === range.min ? 1 : -1;
  for (let amount = first; amount >= range.min && amount <= range.max; amount += step) {
    if (taken.has(amount)) continue;
    if (!lookUp.some((account) => HELD_AT(db).get({ account, amount, unpaid_since: unpaidSince }) !== null)) break;
    taken.add(amount);
  }
  return taken;
}

/** Moves the account to the back of the round-robin: its stamp becomes the highest + 1. */
export function markUsed(db: Database, id: number): number {
  const row = db.query("UPDATE channel_accounts SET use_seq = (SELECT MAX(use_seq) FROM channel_accounts) + 1 WHERE id = $id RETURNING use_seq").get({ id }) as { use_seq: number };
  return row.use_seq;
}
