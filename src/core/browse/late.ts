// What "paid late" means for the console (the 超时后到账 badge, the dashboard's late list): the
// money was reported after the order's expire_time and the match window still credited it, so the
// payer may have been told the order timed out. An operator's decision is not a late payment: a
// 补单 or simulate-pay (a report of kind "operator") and an assignment of money that was reported
// in time (its report is older than the expiry) say nothing about the payer, however long after
// the expiry the operator acted. The dashboard's store query (store.browse.attention) applies the
// same rule in SQL; keep the two together.
import type { StoredReport } from "../store.ts";
import type { Order } from "../types.ts";

/** When the money of a paid order was reported: its paying report, else paid_at; null for an operator's payment. */
export function moneyReportedAt(order: Order, reports: readonly StoredReport[]): number | null {
  if (order.paidAt === null) return null;
  const paying = reports.filter((r) => r.outcome === "matched" && r.tradeNo === order.tradeNo);
  if (paying.some((r) => r.kind === "operator")) return null;
  // No stored report (a payment through the store's pay unit alone): the payment time is the best we know.
  return paying.length === 0 ? order.paidAt : Math.min(...paying.map((r) => r.createdAt));
}

/** Seconds the money came after expire_time, or null when the order was not paid late. */
export function lateBy(order: Order, reports: readonly StoredReport[]): number | null {
  const at = moneyReportedAt(order, reports);
  return at !== null && at > order.expireTime ? at - order.expireTime : null;
}
