// The orders list's bulk actions: close the selected pending orders, or send the selected orders'
// notifications again. Each order goes through the audited single-order action (its own audit
// entry, with the bulk's reason, so an order's trail shows it), then one summary entry records the
// whole selection with the count. A reason is required; an order the action does not apply to (not
// pending any more, no notification) is skipped with its code and counted, never an error.
// `xpay order close-pending` selects by a filter instead of ticks (closePendingAs): the same cap,
// the same per-order action and summary entry, the filter recorded in the summary.
import { type Actor, audit } from "./admin/audit.ts";
import type { Gateway } from "./gateway.ts";
import { type ReasonCode, reasonCode } from "./manual-payment.ts";
import type { OrderFilter } from "./browse/order-query.ts";
import { type ActionRefusalCode, closeOrderAs, replayNotificationAs } from "./order-actions.ts";
import type { Order } from "./types.ts";

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

/** `selection`: how the orders were chosen when not by ticks (the CLI's filter as typed), kept in the summary entry. */
export async function bulkOrdersAs(gw: Gateway, actor: Actor, kind: BulkKind, tradeNos: string[], reason: string, selection?: Record<string, string>): Promise<BulkResult> {
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
    before: { selected: selected.length, ...(selection ? { filter: selection } : {}) }, after: { done: out.done.length, skipped: out.skipped.length, trade_nos: out.done },
  });
  return { ok: true, value: out };
}

export type ClosePendingResult =
  | { ok: true; dryRun: true; orders: Order[] }
  | { ok: true; dryRun: false; orders: Order[]; outcome: BulkOutcome }
  | { ok: false; code: BulkRefusalCode; message: string };

/**
 * Closes the pending (not yet expired) orders under `filter`, newest first: at most `limit` of them
 * (BULK_MAX at most). When more match and no limit was asked for, nothing is closed: the operator
 * narrows the filter or says how many. A dry run only lists them (and audits nothing).
 */
export async function closePendingAs(
  gw: Gateway, actor: Actor, filter: Omit<OrderFilter, "status" | "after">, reason: string,
  o: { dryRun?: boolean; limit?: number; selection?: Record<string, string> } = {},
): Promise<ClosePendingResult> {
  const bad = reasonCode(reason);
  if (bad) return { ok: false, code: bad, message: bad === "reason_missing" ? "a reason is required" : "the reason is too long" };
  const cap = Math.min(o.limit ?? BULK_MAX, BULK_MAX);
  const found = await gw.store.browse.searchOrders({ ...filter, status: 1, limit: cap + 1, now: gw.clock.now() });
  if (found.length > cap && o.limit === undefined) {
    return { ok: false, code: "too_many", message: `more than ${BULK_MAX} pending orders match; narrow the filter, or close the newest ${BULK_MAX} with --limit ${BULK_MAX} and run it again` };
  }
  const orders = found.slice(0, cap);
  if (o.dryRun) return { ok: true, dryRun: true, orders };
  if (orders.length === 0) return { ok: true, dryRun: false, orders, outcome: { kind: "close", done: [], skipped: [] } };
  const r = await bulkOrdersAs(gw, actor, "close", orders.map((x) => x.tradeNo), reason, o.selection);
  return r.ok ? { ok: true, dryRun: false, orders, outcome: r.value } : r;
}
