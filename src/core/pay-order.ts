// The one way an order becomes paid (report API, third-account watcher, simulate-pay): a
// conditional update plus the order's outbox row, in one commit.
import { withQuery } from "./families.ts";
import type { Gateway } from "./gateway.ts";
import type { PayResult } from "./store.ts";
import { type Order, OrderStatus } from "./types.ts";

export interface PaymentFacts {
  apiTradeNo?: string;
  buyer?: string;
}

export async function payOrder(gw: Gateway, tradeNo: string, facts: PaymentFacts = {}): Promise<PayResult> {
  const order = await gw.store.getOrder(tradeNo);
  if (!order) return { kind: "not_found" };
  const merchant = await gw.store.getMerchant(order.pid);
  if (!merchant) return { kind: "not_found" };
  const s = await gw.settings();
  const now = gw.clock.now();
  const notifier = gw.families.get(order.family);
  const result = await gw.store.payOrder({
    tradeNo,
    now,
    nowMs: gw.clock.nowMs(),
    apiTradeNo: facts.apiTradeNo || undefined,
    buyer: facts.buyer || undefined,
    acceptTimedOutSince: now - s.int("match_window"),
    outbox: (paid) =>
      paid.notifyUrl === ""
        ? null
        : { family: paid.family, url: paid.notifyUrl, method: notifier.method(merchant), params: notifier.notificationParams(paid) },
  });
  if (result.kind === "paid" && result.notificationId !== null) gw.notificationQueued();
  return result;
}

/** The return_url with the family's signed fields, present only once the order is paid. */
export async function returnUri(gw: Gateway, order: Order): Promise<string | null> {
  if (order.status !== OrderStatus.Paid || order.returnUrl === "") return null;
  const merchant = await gw.store.getMerchant(order.pid);
  if (!merchant) return null;
  const notifier = gw.families.get(order.family);
  const params = notifier.returnParams(order, { merchant, platformPrivateKey: await gw.platformPrivateKey(), now: gw.clock.now() });
  return withQuery(order.returnUrl, params);
}
