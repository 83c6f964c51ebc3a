// The orders list's bulk actions: close the selected pending orders, or send the selected orders'
// notifications again. Each order goes through the audited single-order action (its own audit
// entry, with the bulk's reason, so an order's trail shows it), then one summary entry records the
// whole selection with the count. A reason is required; an order the action does not apply to (not
// pending any more, no notification) is skipped with its code and counted, never an error.
import { type Actor, audit } from "./admin/audit.ts";
import type { Gateway } from "./gateway.ts";
import { type ReasonCode, reasonCode } from "./manual-payment.ts";
import { type ActionRefusalCode, closeOrderAs, replayNotificationAs } from "./order-actions.ts";

/** One page of the list at most: the selection comes from the page's checkboxes. */
export const BULK_MAX = 200;

export type BulkKind = "close" | "resend";

export interface BulkOutcome {
  kind: BulkKind;
  done: string[];
  skipped: { tradeNo: string; code: ActionRefusalCode }[];
}

export type BulkRefusalCode = ReasonCode | "none_selected" | "too_many";
export type BulkResult = { ok: true; value: BulkOutcome } | { ok: false; code: BulkRefusalCode; message: string };

const TRADE_NO = /^[0-9A-Za-z_-]{1,64}$/;
const ACTION = { close: "order.bulk_close", resend: "notification.bulk_resend" } as const;

export async function bulkOrdersAs(gw: Gateway, actor: Actor, kind: BulkKind, tradeNos: string[], reason: string): Promise<BulkResult> {
  const bad = reasonCode(reason);
  if (bad) return { ok: false, code: bad, message: bad === "reason_missing" ? "a reason is required" : "the reason is too long" };
  const selected = [...new Set(tradeNos.map((t) => t.trim()).filter((t) => TRADE_NO.test(t)))];
  if (selected.length === 0) return { ok: false, code: "none_selected", message: "no order selected" };
  if (selected.length > BULK_MAX) return { ok: false, code: "too_many", message: `at most ${BULK_MAX} orders at once` };
  const why = reason.trim();
  const out: BulkOutcome = { kind, done: [], skipped: [] };
  for (const tradeNo of selected) {
    const r = kind === "close" ? await closeOrderAs(gw, actor, tradeNo, why) : await replayNotificationAs(gw, actor, tradeNo, why);
    if (r.ok) out.done.push(tradeNo);
    else out.skipped.push({ tradeNo, code: r.refusal.code });
  }
  await audit(gw, {
    actor, action: ACTION[kind], target: "orders", reason: why,
    before: { selected: selected.length }, after: { done: out.done.length, skipped: out.skipped.length, trade_nos: out.done },
  });
  return { ok: true, value: out };
}
