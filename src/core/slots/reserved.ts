// The reserved-amounts view (issue 22, `xpay channel slots`, /admin/accounts/:id/slots): the
// payable amounts an account's orders hold now, until when, and the order behind each; and, for
// an amount the operator types, which trade_amount the next order of that amount would get there.
// It reads the store's held-slot query (the allocator's own rule) and picks with the allocator's
// chooseTradeAmount, so it answers exactly what the next create does on this account.
import { chooseTradeAmount, offsetLimit } from "../allocation.ts";
import { allocationPolicy } from "../create-order.ts";
import type { Gateway } from "../gateway.ts";
import { effectiveStatus } from "../order-state.ts";
import type { ChannelAccount, OrderStatus } from "../types.ts";
import type { HeldSlot } from "./store.ts";

/** Rows the list shows at most; an account holding more says so (`truncated`). */
export const SLOT_LIST_LIMIT = 500;

export interface ReservedSlot extends HeldSlot {
  /** What callers see: a pending order past expire_time reads as timed out (4). */
  shownStatus: OrderStatus;
  /** When the order ended (expired, closed, paid); null while still pending. */
  endedAt: number | null;
  /** The slot is free again after this (unix seconds); a pending order may free it earlier by being paid. */
  heldUntil: number;
}

export interface SlotProbe {
  amount: number;
  /** The amounts the allocator tries, in its order, each with the order holding it (null: free). */
  steps: { tradeAmount: number; heldBy: ReservedSlot | null }[];
  /** The first free one: the next order of `amount` on this account gets it; null: the account is full for it. */
  next: number | null;
}

export interface ReservedView {
  account: ChannelAccount;
  /** The other accounts of its report group (watch.ts): payable amounts are unique across them all. */
  group: ChannelAccount[];
  now: number;
  matchWindow: number;
  maxOffset: number;
  direction: "down" | "up";
  slots: ReservedSlot[];
  truncated: boolean;
  probe: SlotProbe | null;
}

/** The time the order stopped (or stops) being payable; a slot is held until then + the match window. */
function endOf(s: HeldSlot): number {
  if (s.status === 2 && s.paidAt !== null) return s.paidAt;
  if (s.status === 3 && s.closedAt !== null) return s.closedAt;
  return s.expireTime;
}

function reserved(s: HeldSlot, now: number, window: number): ReservedSlot {
  const shownStatus = effectiveStatus({ status: s.status as OrderStatus, expireTime: s.expireTime }, now);
  return { ...s, shownStatus, endedAt: shownStatus === 1 ? null : endOf(s), heldUntil: endOf(s) + window };
}

/** null when there is no such account. `probe` is an order amount in cents. */
export async function reservedAmounts(gw: Gateway, accountId: number, o: { probe?: number } = {}): Promise<ReservedView | null> {
  const account = await gw.store.getChannel(accountId);
  if (!account) return null;
  const policy = allocationPolicy(await gw.settings());
  const now = gw.clock.now();
  const since = now - policy.matchWindow;
  const rows = await gw.store.slots.heldSlots(accountId, since, { limit: SLOT_LIST_LIMIT + 1 });
  const group = account.reportGroup ? (await gw.store.listChannels()).filter((a) => a.reportGroup === account.reportGroup && a.id !== account.id) : [];
  const slots = rows.slice(0, SLOT_LIST_LIMIT).map((s) => reserved(s, now, policy.matchWindow));
  let probe: SlotProbe | null = null;
  if (o.probe !== undefined && o.probe > 0) {
    const amount = o.probe;
    const step = policy.direction === "down" ? -1 : 1;
    const maxOffset = offsetLimit(amount, policy);
    const far = amount + step * maxOffset;
    const range = { min: Math.max(1, Math.min(amount, far)), max: Math.max(amount, far) };
    // Read for the probe's own range: the list above may be cut at SLOT_LIST_LIMIT.
    const held = (await gw.store.slots.heldSlots(accountId, since, { range, limit: 10_000 })).map((s) => reserved(s, now, policy.matchWindow));
    const byAmount = new Map<number, ReservedSlot>();
    for (const s of held) if (!byAmount.has(s.tradeAmount)) byAmount.set(s.tradeAmount, s);
    const steps: SlotProbe["steps"] = [];
    for (let i = 0; i <= maxOffset && amount + i * step > 0; i++) {
      const tradeAmount = amount + i * step;
      steps.push({ tradeAmount, heldBy: byAmount.get(tradeAmount) ?? null });
    }
    probe = { amount, steps, next: chooseTradeAmount(amount, new Set(byAmount.keys()), maxOffset, policy.direction) };
  }
  return { account, group, now, matchWindow: policy.matchWindow, maxOffset: policy.maxOffset, direction: policy.direction, slots, truncated: rows.length > SLOT_LIST_LIMIT, probe };
}

/** Every account with how many payable amounts it holds now (the clients page links each to its view). */
export async function accountsHeld(gw: Gateway): Promise<{ account: ChannelAccount; held: number; more: boolean }[]> {
  const since = gw.clock.now() - (await gw.settings()).int("match_window");
  const accounts = await gw.store.listChannels();
  return Promise.all(
    accounts.map(async (account) => {
      const n = (await gw.store.slots.heldSlots(account.id, since, { limit: SLOT_LIST_LIMIT + 1 })).length;
      return { account, held: Math.min(n, SLOT_LIST_LIMIT), more: n > SLOT_LIST_LIMIT };
    }),
  );
}
