// The one way an order becomes paid (report API, third-account watcher, simulate-pay): a
// conditional update plus the order's outbox row, in one commit.
import { withQuery } from "./families.ts";
import type { Gateway } from "./gateway.ts";
import type { PayResult, PayUnit } from "./store.ts";
import { type Merchant, type Order, OrderStatus } from "./types.ts";

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
  const result = await gw.store.payOrder(payUnit(gw, merchant, s.int("match_window"), tradeNo, facts));
  if (result.kind === "paid") gw.metrics.orderPaid(result.order);
  if (result.kind === "paid" && result.notificationId !== null) gw.notificationQueued();
  return result;
}

/**
 * The store's pay unit for one order of `merchant`. Report settlement (store.settleReport) runs
 * the same unit inside its own transaction, so every payment writes the same outbox row.
 */
export function payUnit(gw: Gateway, merchant: Merchant, matchWindow: number, tradeNo: string, facts: PaymentFacts = {}): PayUnit {
  const now = gw.clock.now();
  return {
    tradeNo,
    now,
    nowMs: gw.clock.nowMs(),
    apiTradeNo: reportedText(facts.apiTradeNo),
    buyer: reportedText(facts.buyer),
    acceptTimedOutSince: now - matchWindow,
    outbox: (paid) => {
      if (paid.notifyUrl === "") return null;
      const notifier = gw.families.get(paid.family);
      return { family: paid.family, url: paid.notifyUrl, method: notifier.method(merchant), params: notifier.notificationParams(paid) };
    },
  };
}

/**
 * A payment detail a monitoring client reported (payer name, provider transaction number). It is
 * repeated in notifications that V2 signs with the one platform key over raw `k=v&` text, where
 * `&key=` could be re-read as other fields; `&` becomes a full-width ＆, which reads the same.
 */
function reportedText(value: string | undefined): string | undefined {
  return value ? value.replaceAll("&", "＆").slice(0, 128) : undefined;
}

/** The return_url with the family's signed fields, present only once the order is paid. */
export async function returnUri(gw: Gateway, order: Order): Promise<string | null> {
  if (order.status !== OrderStatus.Paid || order.returnUrl === "") return null;
  const merchant = await gw.store.getMerchant(order.pid);
  if (!merchant) return null;
  const notifier = gw.families.get(order.family);
  const key = notifier.signingKey ? await notifier.signingKey(order) : undefined;
  if (key === null) return null;
  const params = notifier.returnParams(order, { merchant, platformPrivateKey: await gw.platformPrivateKey(), now: gw.clock.now(), key });
  return withQuery(order.returnUrl, params);
}
