// Which account takes an order, and which payable amount (trade_amount) makes it unique there.
// Pure rules: the store runs them inside the write transaction that inserts the order.
import type { ChannelAccount } from "./types.ts";

export interface CandidateAccount extends ChannelAccount {
  /** Sum of trade_amount paid on this account today. */
  paidToday: number;
}

export interface AllocationView {
  /** Enabled accounts of this pay type, owned by the merchant or shared. */
  candidateAccounts(pid: number, payType: string, dayStart: number): CandidateAccount[];
  /**
   * trade_amounts reserved on the account: pending, or ended (paid, closed, timed out) at or
   * after `unpaidSince`;
   * only those within [min, max] (the amounts the rule could choose), so the cost of a create
   * does not grow with the number of pending orders on the account. An account takes one pay
   * type, so the account alone names the amounts its orders hold.
   *
   * `first`: the rule's first candidate, one end of the range; the rule takes the first amount not
   * in the set, walking from `first` to the other end. A store may then stop at that amount: the
   * set must hold every reserved amount before it, and need hold none after it (a store that reads
   * amounts one by one, at a busy price, reads one where the whole range took seventeen).
   */
  takenTradeAmounts(accountId: number, unpaidSince: number, range: { min: number; max: number }, first?: number): Set<number>;
}

export interface AllocationPolicy {
  maxOffset: number;
  /** The offset as a share of the amount, in percent (max_offset_percent); the tighter bound wins. */
  maxOffsetPercent: number;
  direction: "down" | "up";
  matchWindow: number;
  requireOnline: boolean;
  heartbeatTimeout: number;
}

export type Allocation = { ok: true; account: CandidateAccount; tradeAmount: number } | { ok: false; reason: string };

/**
 * What a rule was built from, as data: a store that decides on the database server in one round
 * trip (PostgreSQL's create function, migration 026) reads this instead of calling the rule; it
 * cannot call back into the application without holding its locks across a round trip. The
 * offset bound is computed here (offsetLimit) so its arithmetic stays in one place.
 */
export interface AllocationRequest {
  pid: number;
  payType: string;
  amount: number;
  now: number;
  dayStart: number;
  policy: AllocationPolicy;
  /** offsetLimit(amount, policy) */
  maxOffset: number;
  /** Only this account may take the order (the console's 测试支付), or any candidate. */
  onlyAccountId: number | null;
}

/** A rule without `request` (a test's own rule) runs through the view, wherever the store is. */
export type AllocationRule = ((view: AllocationView) => Allocation) & { readonly request?: AllocationRequest };

/**
 * How far (in cents) this amount's payable amount may move: max_offset, and at most
 * max_offset_percent of the amount (rounded down). V1, V2 and hash notifications carry the price
 * asked, not the amount paid, so without the relative bound a raised max_offset let a 0.30 order
 * be paid with 0.01 while the shop was told 0.30.
 */
export function offsetLimit(amount: number, p: Pick<AllocationPolicy, "maxOffset" | "maxOffsetPercent">): number {
  return Math.min(p.maxOffset, Math.floor((amount * p.maxOffsetPercent) / 100));
}

/** The first free amount: amount, amount-1, ... (or upwards), at most maxOffset cents away, never <= 0. */
export function chooseTradeAmount(amount: number, taken: Set<number>, maxOffset: number, direction: "down" | "up"): number | null {
  return firstFree(amount, taken, 0, maxOffset, direction);
}

/** chooseTradeAmount over the offsets from..to only (`taken` need hold no other amounts). */
function firstFree(amount: number, taken: Set<number>, from: number, to: number, direction: "down" | "up"): number | null {
  const step = direction === "down" ? -1 : 1;
  for (let i = from; i <= to; i++) {
    const candidate = amount + i * step;
    if (candidate <= 0) break;
    if (!taken.has(candidate)) return candidate;
  }
  return null;
}

function fits(a: CandidateAccount, amount: number, now: number, p: AllocationPolicy): string | null {
  if (a.minAmount > 0 && amount < a.minAmount) return "amount below every account's minimum";
  if (a.maxAmount > 0 && amount > a.maxAmount) return "amount above every account's maximum";
  if (a.dayAmount > 0 && a.paidToday + amount > a.dayAmount) return "daily limit reached on every account";
  if (p.requireOnline && now - a.lastSeenAt > p.heartbeatTimeout) return "no account has an online monitoring client";
  return null;
}

/** How many payable amounts a create reads first (most find a free one there); PostgreSQL's create function reads the same. */
export const NEAR = 16;

/**
 * How the stores read the taken amounts of a range: a walk of the orders of the range while it
 * holds at most this many an amount, else each amount looked up among the orders that still hold
 * it (a lookup costs about ten entries walked). PostgreSQL's create function (035, 036) reads the same.
 */
export const WALK_PER_AMOUNT = 8;

/** Builds the rule for one order; the store calls it with a view inside its transaction. */
export function allocationRule(o: { pid: number; payType: string; amount: number; now: number; dayStart: number }, p: AllocationPolicy): AllocationRule {
  // The taken amounts are read for the first NEAR candidates (most creates find a free amount
  // there, whatever max_offset is), and only when those are all taken for the next ones, in reads
  // four times as wide each time: a run of taken amounts at a busy price is passed in a few reads,
  // each bounded by its width (a store reads a range by amount once it holds many orders an amount).
  const step = p.direction === "down" ? -1 : 1;
  const range = (from: number, to: number) => {
    const [a, b] = [o.amount + from * step, o.amount + to * step];
    return { min: Math.min(a, b), max: Math.max(a, b) };
  };
  const maxOffset = offsetLimit(o.amount, p);
  // Down, no amount below 0.01: the offsets past amount - 1 are never read.
  const lastOffset = p.direction === "down" ? Math.min(maxOffset, o.amount - 1) : maxOffset;
  const near = Math.min(maxOffset, NEAR);
  const request: AllocationRequest = { ...o, policy: { ...p }, maxOffset, onlyAccountId: null };
  const rule = (view: AllocationView): Allocation => {
    const accounts = view
      .candidateAccounts(o.pid, o.payType, o.dayStart)
      .sort((a, b) => a.sort - b.sort || a.useSeq - b.useSeq || a.id - b.id);
    if (accounts.length === 0) return { ok: false, reason: `no enabled account for pay type ${o.payType}` };
    let lastReason = "";
    for (const a of accounts) {
      const misfit = fits(a, o.amount, o.now, p);
      if (misfit) {
        lastReason = misfit;
        continue;
      }
      const since = o.now - p.matchWindow;
      let tradeAmount: number | null = null;
      for (let from = 0, width = near + 1; tradeAmount === null && from <= lastOffset; from += width, width *= 4) {
        const to = Math.min(lastOffset, from + width - 1);
        tradeAmount = firstFree(o.amount, view.takenTradeAmounts(a.id, since, range(from, to), o.amount + from * step), from, to, p.direction);
      }
      if (tradeAmount !== null) return { ok: true, account: a, tradeAmount };
      lastReason = "no free payable amount on any account; try again later";
    }
    return { ok: false, reason: lastReason };
  };
  return Object.assign(rule, { request });
}
