// Creating an order, the same for every family: validation, idempotent retry on the same
// out_trade_no, and account + trade_amount allocation in one write transaction.
import { allocationRule, type AllocationPolicy, type AllocationRule } from "./allocation.ts";
import type { Gateway } from "./gateway.ts";
import { newTradeNo, startOfDay } from "./ids.ts";
import { effectiveStatus } from "./order-state.ts";
import { checkName, checkOutTradeNo, checkParam, checkPayType, checkSignedTexts, checkUrl } from "./order-input.ts";
import { blockPrivateOn, createTargetProblem } from "./notify/target.ts";
import type { Settings } from "./settings.ts";
import type { ExistingDecision } from "./store.ts";
import { type ChannelAccount, type Merchant, type NewOrder, type Order, OrderStatus } from "./types.ts";

export type CreateOutcome =
  | { ok: true; order: Order; account: ChannelAccount | null; merchant: Merchant; existing: boolean }
  | { ok: false; kind: "invalid" | "merchant" | "conflict" | "failed"; reason: string; order?: Order };

export function allocationPolicy(s: Settings): AllocationPolicy {
  return {
    maxOffset: s.int("max_offset"),
    maxOffsetPercent: s.int("max_offset_percent"),
    direction: s.str("offset_direction") === "up" ? "up" : "down",
    matchWindow: s.int("match_window"),
    requireOnline: s.str("require_online_client") === "1",
    heartbeatTimeout: s.int("heartbeat_timeout"),
  };
}

export function ruleFor(o: { pid: number; payType: string; amount: number }, now: number, s: Settings): AllocationRule {
  return allocationRule({ ...o, now, dayStart: startOfDay(now) }, allocationPolicy(s));
}

function validate(o: NewOrder): string | null {
  return (
    checkOutTradeNo(o.outTradeNo) ??
    (o.payType === "" ? null : checkPayType(o.payType)) ??
    checkName(o.name) ??
    checkUrl("notify_url", o.notifyUrl) ??
    checkUrl("return_url", o.returnUrl) ??
    checkParam(o.param) ??
    checkSignedTexts(o)
  );
}

/**
 * A create whose out_trade_no exists: a failed one is retried on the same row; a different amount
 * is a conflict; a closed or timed-out one is a conflict too (handing back a dead order would
 * send the payer to a page that can no longer be paid); a pending or paid one is returned.
 */
function onExisting(o: NewOrder, now: number) {
  return (existing: Order): ExistingDecision => {
    if (existing.status === OrderStatus.Failed) return { kind: "retry" };
    if (existing.amount !== o.amount) {
      return { kind: "error", reason: `out_trade_no ${o.outTradeNo} already exists with a different amount` };
    }
    const status = effectiveStatus(existing, now);
    if (status === OrderStatus.Closed || status === OrderStatus.TimedOut) {
      const how = status === OrderStatus.Closed ? "was closed" : "timed out";
      return { kind: "error", reason: `out_trade_no ${o.outTradeNo} belongs to an order that ${how}; create the order again with a new out_trade_no` };
    }
    return { kind: "return" };
  };
}

/** Loads the merchant and checks it may create orders; protocols call this before verifying. */
export async function activeMerchant(gw: Gateway, pid: number): Promise<{ ok: true; merchant: Merchant } | { ok: false; reason: string }> {
  const merchant = Number.isSafeInteger(pid) && pid > 0 ? await gw.store.getMerchant(pid) : null;
  if (!merchant) return { ok: false, reason: "unknown merchant (pid)" };
  if (!merchant.active) return { ok: false, reason: "merchant is disabled" };
  return { ok: true, merchant };
}

/** A rule that may only take one account: the console's 测试支付 (test-pay.ts) pins the account it tests. */
export function pinnedRule(rule: AllocationRule, accountId: number): AllocationRule {
  const pinned: AllocationRule = (view) => rule({
    candidateAccounts: (pid, payType, dayStart) => view.candidateAccounts(pid, payType, dayStart).filter((a) => a.id === accountId),
    takenTradeAmounts: (id, since, range, first) => view.takenTradeAmounts(id, since, range, first),
  });
  return rule.request ? Object.assign(pinned, { request: { ...rule.request, onlyAccountId: accountId } }) : pinned;
}

export async function createOrder(gw: Gateway, merchant: Merchant, o: NewOrder, only?: { accountId: number }): Promise<CreateOutcome> {
  const invalid = validate(o);
  if (invalid) return { ok: false, kind: "invalid", reason: invalid };
  const refused = o.notifyUrl !== "" && (await blockPrivateOn(gw)) ? await createTargetProblem(o.notifyUrl, gw.lookup) : null;
  if (refused) return { ok: false, kind: "invalid", reason: refused };
  const s = await gw.settings();
  const now = gw.clock.now();
  const result = await gw.store.createOrder({
    order: o,
    newTradeNo: () => newTradeNo(gw.clock.nowMs()),
    now,
    expireTime: now + s.int("order_ttl"),
    onExisting: onExisting(o, now),
    allocate: o.payType === "" ? null : only ? pinnedRule(ruleFor(o, now, s), only.accountId) : ruleFor(o, now, s),
  });
  if (result.kind === "created") gw.metrics.orderCreated(result.order);
  if (result.kind === "error") return { ok: false, kind: "conflict", reason: result.reason };
  const order = result.order;
  if (order.status === OrderStatus.Failed) return { ok: false, kind: "failed", reason: order.failReason, order };
  return { ok: true, order, account: result.account, merchant, existing: result.kind === "existing" };
}

/** The payer's pick on the cashier page for an order created without a pay type. */
export async function choosePayType(gw: Gateway, order: Order, payType: string) {
  const bad = checkPayType(payType);
  if (bad) return { ok: false as const, reason: bad };
  const s = await gw.settings();
  const now = gw.clock.now();
  return gw.store.chooseOrderPayType(order.tradeNo, payType, now, ruleFor({ pid: order.pid, payType, amount: order.amount }, now, s));
}
