// Which order a payment report pays: a pure rule over what the store shows it. The store runs it
// inside the same write transaction that pays the order and stores the report, so two reports of
// one payment can never both decide "this order".
import { because, type ClaimArgs, type IdNote, noted, type Reason } from "./reasons.ts";
import type { DirectoryAccount, PayResult } from "./store.ts";
import type { ChannelAccount, Order } from "./types.ts";

/** What a report says about a received payment; empty strings / null mean "not given". */
export interface PaymentClaim {
  /** Merchant whose orders may be paid; null for third-account reports and the operator's clients (any merchant). */
  pid: number | null;
  /**
   * The accounts the reporter watches (core/clients/watch.ts): the only ones it may pay on. Null:
   * every account (third-account reports, whose sub_account names the account).
   */
  accounts?: readonly number[] | null;
  amount: number; // cents, the payable trade_amount
  payType: string;
  channelCode: string;
  accountId: number | null;
  /** Third-account watcher: the monitored account, by name, code or id. */
  subAccount: string;
  /** order_id / out_order_id as sent: each may be a platform trade_no or a merchant out_trade_no. */
  orderId: string;
  outOrderId: string;
}

export interface MatchView {
  /** Accounts of the merchant plus shared ones; every account when pid is null. */
  accounts(pid: number | null): readonly DirectoryAccount[];
  /** Orders on these accounts with this trade_amount that ended (or may end) at or after `since`. */
  ordersByTradeAmount(accountIds: number[], tradeAmount: number, since: number): Order[];
  orderByTradeNo(tradeNo: string): Order | null;
  ordersByOutTradeNo(pid: number | null, outTradeNo: string): Order[];
}

/** Every decision carries its reason as a code (core/reasons.ts): the store keeps it as given. */
export type MatchDecision =
  | { kind: "matched"; order: Order; reason: Reason }
  | { kind: "unmatched"; reason: Reason; order?: Order }
  | { kind: "ambiguous"; reason: Reason; tradeNos: string[] };

/** A match; its reason reads "paid", or "paid (...)" with what else there is to say. */
export function matched(order: Order, paid: { notes?: IdNote[]; by_amount?: boolean; by?: string } = {}): MatchDecision {
  return { kind: "matched", order, reason: because("paid", paid) };
}

/** Pending, or timed out no longer than the match window ago: a late payment still counts. */
export function isPayable(o: Order, now: number, matchWindow: number): boolean {
  return o.tradeAmount !== null && (o.status === 1 || o.status === 4) && o.expireTime >= now - matchWindow;
}

export function whyNotPayable(o: Order, now: number, matchWindow: number): Reason {
  const no = o.tradeNo;
  if (o.status === 2) return because("already_paid", { no });
  if (o.status === 3) return because("closed", { no });
  if (o.status === 5) return because("failed", { no });
  if (o.tradeAmount === null) return because("no_pay_type", { no });
  if (o.expireTime < now - matchWindow) return because("timed_out", { no, window: matchWindow });
  return because("not_payable", { no });
}

/** Why a matched order was not paid after all: the store's pay unit refused it (a race). */
export function notPaidReason(pay: Exclude<PayResult, { kind: "paid" }>, tradeNo: string): Reason {
  if (pay.kind === "already_paid") return because("already_paid", { no: tradeNo });
  if (pay.kind === "not_found") return because("order_not_found");
  const o = pay.order;
  return because(o.status === 3 ? "pay_closed" : o.status === 5 ? "pay_failed" : o.tradeAmount === null ? "pay_no_pay_type" : "pay_timed_out");
}

/** Which accounts a report speaks for; empty fields do not narrow. Also used to mark accounts online. */
export interface AccountHint {
  payType?: string;
  accountId?: number | null;
  channelCode?: string;
  /** A channel account's name, code or id (third-account sub_account); it outranks channelCode. */
  named?: string;
}

export function accountFits(a: Pick<ChannelAccount, "id" | "payType" | "name" | "code">, h: AccountHint): boolean {
  if (h.payType && a.payType !== h.payType) return false;
  if (typeof h.accountId === "number") return a.id === h.accountId;
  if (h.named && a.name !== h.named && a.code !== h.named && String(a.id) !== h.named) return false;
  if (h.channelCode && !h.named && a.code !== h.channelCode) return false;
  return true;
}

function accountFilter(c: PaymentClaim, a: DirectoryAccount): boolean {
  if (c.accounts && !c.accounts.includes(a.id)) return false;
  return accountFits(a, { payType: c.payType, accountId: c.accountId, channelCode: c.channelCode, named: c.subAccount });
}

function describe(c: PaymentClaim): ClaimArgs {
  const claim: ClaimArgs = { amount: c.amount, pay_type: c.payType };
  if (c.accountId !== null) claim.account = c.accountId;
  else if (c.subAccount) claim.sub_account = c.subAccount;
  else if (c.channelCode) claim.channel_code = c.channelCode;
  return claim;
}

/** Orders an id may name: a platform trade_no or a merchant out_trade_no, of the claim's merchant. */
function lookup(id: string, c: PaymentClaim, view: MatchView): Order[] {
  const found: Order[] = [];
  const byTradeNo = view.orderByTradeNo(id);
  // Another merchant's order reads exactly like a missing one, so a report learns nothing about it.
  if (byTradeNo && (c.pid === null || byTradeNo.pid === c.pid)) found.push(byTradeNo);
  for (const o of view.ordersByOutTradeNo(c.pid, id)) if (!found.some((f) => f.tradeNo === o.tradeNo)) found.push(o);
  return found;
}

/** "unnamed": no id names an order; the note says so and matching goes on by amount. */
type Named = MatchDecision | { kind: "unnamed"; notes: IdNote[] };

/**
 * An order named by order_id / out_order_id: either field may carry either number (the spec
 * calls /pc's out_order_id "this platform's order number", the other routes the merchant's). The
 * named order must agree with the rest of the claim.
 */
function named(c: PaymentClaim, view: MatchView, now: number, window: number): Named {
  const fields = [["order_id", c.orderId], ["out_order_id", c.outOrderId]] as const;
  const unknown: IdNote[] = [];
  let order: Order | null = null;
  for (const [field, id] of fields) {
    if (id === "") continue;
    const found = lookup(id, c, view);
    if (found.length === 0) unknown.push({ field, id, mine: c.pid !== null });
    else if (found.length > 1) {
      const tradeNos = found.map((o) => o.tradeNo);
      return { kind: "ambiguous", reason: because("names_several", { field, id, orders: tradeNos }), tradeNos };
    } else if (order && order.tradeNo !== found[0]!.tradeNo) return { kind: "unmatched", reason: because("ids_differ") };
    else order = found[0]!;
  }
  if (!order) return { kind: "unnamed", notes: unknown };
  const no = order.tradeNo;
  if (order.tradeAmount !== c.amount) return { kind: "unmatched", reason: because("amount_differs", { amount: c.amount, no, expected: order.tradeAmount }), order };
  if (order.payType !== c.payType) return { kind: "unmatched", reason: because("pay_type_differs", { pay: c.payType, no, expected: order.payType }), order };
  if (!isPayable(order, now, window)) return { kind: "unmatched", reason: whyNotPayable(order, now, window), order };
  // The ids are a cross-check: the order must also sit on a matching account the reporter watches.
  if ((c.pid !== null || c.accounts) && !view.accounts(c.pid).some((a) => a.id === order.accountId && accountFilter(c, a))) {
    return { kind: "unmatched", reason: because("other_account", { no, claim: describe(c) }), order };
  }
  return matched(order);
}

/** The one payable order of the claim's merchant with that trade_amount on a matching account. */
function byAmount(c: PaymentClaim, view: MatchView, now: number, matchWindow: number): MatchDecision {
  const accounts = view.accounts(c.pid).filter((a) => accountFilter(c, a));
  if (accounts.length === 0) return { kind: "unmatched", reason: because("no_account", { claim: describe(c) }) };
  const orders = view.ordersByTradeAmount(accounts.map((a) => a.id), c.amount, now - matchWindow).filter((o) => o.payType === c.payType);
  // A shared (pid 0) account carries every merchant's orders: a merchant's report pays only its own.
  const own = c.pid === null ? orders : orders.filter((o) => o.pid === c.pid);
  const payable = own.filter((o) => isPayable(o, now, matchWindow));
  if (payable.length === 1) return matched(payable[0]!);
  if (payable.length > 1) {
    const tradeNos = payable.map((o) => o.tradeNo);
    return { kind: "ambiguous", reason: because("several", { n: payable.length, claim: describe(c), orders: tradeNos }), tradeNos };
  }
  // Say why when the amount belongs to an order that can no longer be paid (closed, paid, late).
  const latest = own.sort((a, b) => b.createdAt - a.createdAt)[0];
  if (latest) return { kind: "unmatched", reason: whyNotPayable(latest, now, matchWindow), order: latest };
  // Named without its number: the reply goes to the reporting merchant.
  if (own.length < orders.length) return { kind: "unmatched", reason: because("shared_other", { claim: describe(c) }) };
  return { kind: "unmatched", reason: because("no_pending", { claim: describe(c) }) };
}

export function matchPayment(c: PaymentClaim, view: MatchView, now: number, matchWindow: number): MatchDecision {
  if (c.orderId === "" && c.outOrderId === "") return byAmount(c, view, now, matchWindow);
  const n = named(c, view, now, matchWindow);
  if (n.kind !== "unnamed") return n;
  // An id that names nothing (a typo, another system's number) does not block the amount match.
  const d = byAmount(c, view, now, matchWindow);
  return d.kind === "matched" ? matched(d.order, { notes: n.notes, by_amount: true }) : { ...d, reason: noted(d.reason, n.notes) };
}
