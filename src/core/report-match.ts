// Which order a payment report pays: a pure rule over what the store shows it. The store runs it
// inside the same write transaction that pays the order and stores the report, so two reports of
// one payment can never both decide "this order".
import type { ChannelAccount, Order } from "./types.ts";

/** What a report says about a received payment; empty strings / null mean "not given". */
export interface PaymentClaim {
  /** Merchant whose accounts are searched; null for third-account reports (any merchant). */
  pid: number | null;
  amount: number; // cents, the payable trade_amount
  payType: string;
  channelCode: string;
  accountId: number | null;
  /** Third-account watcher: the monitored account, by name, code or id. */
  subAccount: string;
  orderId: string; // platform trade_no
  outOrderId: string; // merchant out_trade_no
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
  | { kind: "matched"; order: Order }
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
  if (h.accountId !== undefined && h.accountId !== null) return a.id === h.accountId;
  if (h.named && a.name !== h.named && a.code !== h.named && String(a.id) !== h.named) return false;
  if (h.channelCode && !h.named && a.code !== h.channelCode) return false;
  return true;
}

function accountFilter(c: PaymentClaim, a: ChannelAccount): boolean {
  return accountFits(a, { payType: c.payType, accountId: c.accountId, channelCode: c.channelCode, named: c.subAccount });
}

function describe(c: PaymentClaim): string {
  const parts = [`amount ${c.amount}`, `pay_type ${c.payType}`];
  if (c.accountId !== null) parts.push(`account ${c.accountId}`);
  else if (c.subAccount) parts.push(`sub_account ${c.subAccount}`);
  else if (c.channelCode) parts.push(`channel_code ${c.channelCode}`);
  return parts.join(", ");
}

/** An order named by order_id / out_order_id: it must agree with the rest of the claim. */
function named(c: PaymentClaim, view: MatchView, now: number, window: number): MatchDecision {
  let order: Order | null = null;
  if (c.orderId) {
    order = view.orderByTradeNo(c.orderId);
    if (order && c.pid !== null && order.pid !== c.pid) order = null;
    if (!order) return { kind: "unmatched", reason: `order_id ${c.orderId} names no order of this merchant` };
    if (c.outOrderId && order.outTradeNo !== c.outOrderId) return { kind: "unmatched", reason: "order_id and out_order_id name different orders" };
  } else {
    const found = view.ordersByOutTradeNo(c.pid, c.outOrderId);
    if (found.length === 0) return { kind: "unmatched", reason: `out_order_id ${c.outOrderId} names no order` };
    if (found.length > 1) return { kind: "ambiguous", reason: `out_order_id ${c.outOrderId} exists for several merchants`, tradeNos: found.map((o) => o.tradeNo) };
    order = found[0]!;
  }
  if (order.tradeAmount !== c.amount) return { kind: "unmatched", reason: `amount ${c.amount} differs from order ${order.tradeNo} (${order.tradeAmount ?? "none"})`, order };
  if (order.payType !== c.payType) return { kind: "unmatched", reason: `pay_type ${c.payType} differs from order ${order.tradeNo} (${order.payType})`, order };
  if (!isPayable(order, now, window)) return { kind: "unmatched", reason: whyNotPayable(order, now, window), order };
  return { kind: "matched", order };
}

export function matchPayment(c: PaymentClaim, view: MatchView, now: number, matchWindow: number): MatchDecision {
  if (c.orderId || c.outOrderId) {
    const d = named(c, view, now, matchWindow);
    // The amount report's ids are a cross-check: the order must also sit on a matching account.
    if (d.kind === "matched" && c.pid !== null && !view.accounts(c.pid).some((a) => a.id === d.order.accountId && accountFilter(c, a))) {
      return { kind: "unmatched", reason: `order ${d.order.tradeNo} is not on an account matching ${describe(c)}`, order: d.order };
    }
    return d;
  }
  const accounts = view.accounts(c.pid).filter((a) => accountFilter(c, a));
  if (accounts.length === 0) return { kind: "unmatched", reason: `no account matches ${describe(c)}` };
  const since = now - matchWindow;
  const orders = view.ordersByTradeAmount(accounts.map((a) => a.id), c.amount, since).filter((o) => o.payType === c.payType);
  const payable = orders.filter((o) => isPayable(o, now, matchWindow));
  if (payable.length === 1) return { kind: "matched", order: payable[0]! };
  if (payable.length > 1) {
    return { kind: "ambiguous", reason: `${payable.length} pending orders match ${describe(c)}; nothing paid`, tradeNos: payable.map((o) => o.tradeNo) };
  }
  // Say why when the amount belongs to an order that can no longer be paid (closed, paid, late).
  const latest = orders.sort((a, b) => b.createdAt - a.createdAt)[0];
  if (latest) return { kind: "unmatched", reason: whyNotPayable(latest, now, matchWindow), order: latest };
  return { kind: "unmatched", reason: `no pending order matches ${describe(c)}` };
}
