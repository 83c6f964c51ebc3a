// Which order a payment report pays: a pure rule over what the store shows it. The store runs it
// inside the same write transaction that pays the order and stores the report, so two reports of
// one payment can never both decide "this order".
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
  accounts(pid: number | null): ChannelAccount[];
  /** Orders on these accounts with this trade_amount that ended (or may end) at or after `since`. */
  ordersByTradeAmount(accountIds: number[], tradeAmount: number, since: number): Order[];
  orderByTradeNo(tradeNo: string): Order | null;
  ordersByOutTradeNo(pid: number | null, outTradeNo: string): Order[];
}

export type MatchDecision =
  | { kind: "matched"; order: Order; note?: string }
  | { kind: "unmatched"; reason: string; order?: Order }
  | { kind: "ambiguous"; reason: string; tradeNos: string[] };

/** Pending, or timed out no longer than the match window ago: a late payment still counts. */
export function isPayable(o: Order, now: number, matchWindow: number): boolean {
  return o.tradeAmount !== null && (o.status === 1 || o.status === 4) && o.expireTime >= now - matchWindow;
}

export function whyNotPayable(o: Order, now: number, matchWindow: number): string {
  if (o.status === 2) return `order ${o.tradeNo} is already paid; nothing changed`;
  if (o.status === 3) return `order ${o.tradeNo} is closed; nothing paid`;
  if (o.status === 5) return `order ${o.tradeNo} failed at creation; nothing paid`;
  if (o.tradeAmount === null) return `order ${o.tradeNo} has no pay type yet; nothing paid`;
  if (o.expireTime < now - matchWindow) return `order ${o.tradeNo} timed out more than ${matchWindow} s ago; nothing paid`;
  return `order ${o.tradeNo} is not payable`;
}

/** Which accounts a report speaks for; empty fields do not narrow. Also used to mark accounts online. */
export interface AccountHint {
  payType?: string;
  accountId?: number | null;
  channelCode?: string;
  /** A channel account's name, code or id (third-account sub_account); it outranks channelCode. */
  named?: string;
}

export function accountFits(a: ChannelAccount, h: AccountHint): boolean {
  if (h.payType && a.payType !== h.payType) return false;
  if (typeof h.accountId === "number") return a.id === h.accountId;
  if (h.named && a.name !== h.named && a.code !== h.named && String(a.id) !== h.named) return false;
  if (h.channelCode && !h.named && a.code !== h.channelCode) return false;
  return true;
}

function accountFilter(c: PaymentClaim, a: ChannelAccount): boolean {
  if (c.accounts && !c.accounts.includes(a.id)) return false;
  return accountFits(a, { payType: c.payType, accountId: c.accountId, channelCode: c.channelCode, named: c.subAccount });
}

function describe(c: PaymentClaim): string {
  const parts = [`amount ${c.amount}`, `pay_type ${c.payType}`];
  if (c.accountId !== null) parts.push(`account ${c.accountId}`);
  else if (c.subAccount) parts.push(`sub_account ${c.subAccount}`);
  else if (c.channelCode) parts.push(`channel_code ${c.channelCode}`);
  return parts.join(", ");
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
type Named = MatchDecision | { kind: "unnamed"; note: string };

/**
 * An order named by order_id / out_order_id: either field may carry either number (the spec
 * calls /pc's out_order_id "this platform's order number", the other routes the merchant's). The
 * named order must agree with the rest of the claim.
 */
function named(c: PaymentClaim, view: MatchView, now: number, window: number): Named {
  const fields = [["order_id", c.orderId], ["out_order_id", c.outOrderId]] as const;
  const unknown: string[] = [];
  let order: Order | null = null;
  for (const [field, id] of fields) {
    if (id === "") continue;
    const found = lookup(id, c, view);
    if (found.length === 0) unknown.push(`${field} ${id} names no order${c.pid === null ? "" : " of this merchant"}`);
    else if (found.length > 1) return { kind: "ambiguous", reason: `${field} ${id} names several orders`, tradeNos: found.map((o) => o.tradeNo) };
    else if (order && order.tradeNo !== found[0]!.tradeNo) return { kind: "unmatched", reason: "order_id and out_order_id name different orders" };
    else order = found[0]!;
  }
  if (!order) return { kind: "unnamed", note: unknown.join("; ") };
  if (order.tradeAmount !== c.amount) return { kind: "unmatched", reason: `amount ${c.amount} differs from order ${order.tradeNo} (${order.tradeAmount ?? "none"})`, order };
  if (order.payType !== c.payType) return { kind: "unmatched", reason: `pay_type ${c.payType} differs from order ${order.tradeNo} (${order.payType})`, order };
  if (!isPayable(order, now, window)) return { kind: "unmatched", reason: whyNotPayable(order, now, window), order };
  // The ids are a cross-check: the order must also sit on a matching account the reporter watches.
  if ((c.pid !== null || c.accounts) && !view.accounts(c.pid).some((a) => a.id === order.accountId && accountFilter(c, a))) {
    return { kind: "unmatched", reason: `order ${order.tradeNo} is not on an account matching ${describe(c)}`, order };
  }
  return { kind: "matched", order };
}

/** The one payable order of the claim's merchant with that trade_amount on a matching account. */
function byAmount(c: PaymentClaim, view: MatchView, now: number, matchWindow: number): MatchDecision {
  const accounts = view.accounts(c.pid).filter((a) => accountFilter(c, a));
  if (accounts.length === 0) return { kind: "unmatched", reason: `no account matches ${describe(c)}` };
  const orders = view.ordersByTradeAmount(accounts.map((a) => a.id), c.amount, now - matchWindow).filter((o) => o.payType === c.payType);
  // A shared (pid 0) account carries every merchant's orders: a merchant's report pays only its own.
  const own = c.pid === null ? orders : orders.filter((o) => o.pid === c.pid);
  const payable = own.filter((o) => isPayable(o, now, matchWindow));
  if (payable.length === 1) return { kind: "matched", order: payable[0]! };
  if (payable.length > 1) {
    return { kind: "ambiguous", reason: `${payable.length} pending orders match ${describe(c)}; nothing paid`, tradeNos: payable.map((o) => o.tradeNo) };
  }
  // Say why when the amount belongs to an order that can no longer be paid (closed, paid, late).
  const latest = own.sort((a, b) => b.createdAt - a.createdAt)[0];
  if (latest) return { kind: "unmatched", reason: whyNotPayable(latest, now, matchWindow), order: latest };
  // Named without its number: the reply goes to the reporting merchant.
  if (own.length < orders.length) return { kind: "unmatched", reason: `the order for ${describe(c)} belongs to another merchant (a shared account); nothing paid` };
  return { kind: "unmatched", reason: `no pending order matches ${describe(c)}` };
}

export function matchPayment(c: PaymentClaim, view: MatchView, now: number, matchWindow: number): MatchDecision {
  if (c.orderId === "" && c.outOrderId === "") return byAmount(c, view, now, matchWindow);
  const n = named(c, view, now, matchWindow);
  if (n.kind !== "unnamed") return n;
  // An id that names nothing (a typo, another system's number) does not block the amount match.
  const d = byAmount(c, view, now, matchWindow);
  return d.kind === "matched" ? { ...d, note: `${n.note}; matched by amount` } : { ...d, reason: `${n.note}; ${d.reason}` };
}
