// Per-merchant delivery health and "resend everything failing for this merchant", shared by the
// console (merchants list, a merchant's page) and the CLI (`xpay notify health`, `xpay notify
// resend --pid P --failing`). The resend is for after the merchant's server is back: every
// notification of that merchant that failed at least once and is not delivered (retrying or given
// up) becomes due now, each to the URL its order named; the worker sends them under its usual
// per-merchant fairness. One audit entry carries the count, the reason and the health before.
import { type Actor, audit } from "../admin/audit.ts";
import type { Gateway } from "../gateway.ts";
import { type ReasonCode, reasonCode } from "../manual-payment.ts";
import type { MerchantDelivery } from "../store.ts";

/** How a merchant's delivery reads at a glance. */
export type DeliveryState = "ok" | "failing" | "idle";

export function deliveryState(d: MerchantDelivery): DeliveryState {
  if (d.failingSince !== null || d.givenUp > 0) return "failing";
  return d.lastSuccessAt === null && d.pending === 0 ? "idle" : "ok";
}

export async function merchantDelivery(gw: Gateway, pid: number): Promise<MerchantDelivery | null> {
  return (await gw.store.deliveryHealth(pid))[0] ?? null;
}

export type ResendRefusalCode = "no_merchant" | "none_failing" | ReasonCode;

export type ResendResult =
  | { ok: true; requeued: number; before: MerchantDelivery }
  | { ok: false; code: ResendRefusalCode; message: string };

const REASON_HELP = "a reason is required (e.g. the merchant's server is back: 商户已修复通知地址)";

export async function resendFailingAs(gw: Gateway, actor: Actor, pid: number, reason: string): Promise<ResendResult> {
  const bad = reasonCode(reason);
  if (bad) return { ok: false, code: bad, message: bad === "reason_missing" ? REASON_HELP : "the reason is too long" };
  const before = await merchantDelivery(gw, pid);
  if (!before) return { ok: false, code: "no_merchant", message: `no merchant ${pid}` };
  const requeued = await gw.store.requeueFailing(pid, gw.clock.nowMs());
  if (requeued === 0) return { ok: false, code: "none_failing", message: `merchant ${pid} has no failing notification to resend` };
  gw.notificationQueued();
  await audit(gw, {
    actor, action: "notification.resend_failing", target: `merchant:${pid}`, reason: reason.trim(),
    before: { failing: before.failing, given_up: before.givenUp, pending: before.pending, failing_since_ms: before.failingSince, last_error: before.lastError },
    after: { requeued },
  });
  return { ok: true, requeued, before };
}
