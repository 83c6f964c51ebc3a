// The operator pays an order with a report that matched nothing (money received, no order found:
// the payer paid a different amount, the phone named no account). The rule is pure; the store
// runs it inside the one transaction that pays the order and marks the report matched.
import { because, type Reason } from "./reasons.ts";
import type { PayUnit, StoredReport } from "./store.ts";
import { type Order, OrderStatus } from "./types.ts";

/** Report kinds that say money arrived; heartbeats and operator entries never pay by assignment. */
export const PAYMENT_REPORT_KINDS: readonly StoredReport["kind"][] = ["message", "amount", "third-account", "vmq-push"];

export interface AssignReportUnit {
  reportId: number;
  tradeNo: string;
  /** Why this report cannot pay this order, or null. Runs on the rows as the transaction reads them. */
  check: (report: StoredReport, order: Order) => string | null;
  pay: (order: Order) => PayUnit;
  /** The reason stored on the report once it paid the order. */
  note: (report: StoredReport, order: Order) => Reason;
}

export type AssignReportResult =
  | { kind: "assigned"; report: StoredReport; order: Order; notificationId: number | null }
  | { kind: "refused"; reason: string }
  | { kind: "not_found"; what: "report" | "order" };

export type AssignRefusalCode = "not_unmatched" | "not_payment" | "other_merchant" | "paid" | "closed" | "no_account" | "created_after" | "ended_before";

/**
 * An unmatched payment report of the order's merchant (or of a third-account watcher), and an
 * order that was payable when the money arrived: created before it, not ended longer than the
 * match window before it. The amount may differ (that is often why nothing matched); the note says
 * so. Null when the report may pay the order; else why not, as a code the console words itself.
 */
export function assignRefusal(report: StoredReport, order: Order, matchWindow: number): AssignRefusalCode | null {
  if (report.outcome !== "unmatched") return "not_unmatched";
  if (!PAYMENT_REPORT_KINDS.includes(report.kind) || report.amount === null) return "not_payment";
  if (report.pid !== null && report.pid !== order.pid) return "other_merchant";
  if (order.status === OrderStatus.Paid) return "paid";
  if (order.status === OrderStatus.Closed) return "closed";
  if (order.status === OrderStatus.Failed || order.tradeAmount === null) return "no_account";
  if (order.createdAt > report.createdAt) return "created_after";
  if (order.expireTime < report.createdAt - matchWindow) return "ended_before";
  return null;
}

/** assignRefusal in the CLI's words. */
export function assignProblem(report: StoredReport, order: Order, matchWindow: number): string | null {
  const code = assignRefusal(report, order, matchWindow);
  if (code === null) return null;
  const words: Record<AssignRefusalCode, string> = {
    not_unmatched: `report ${report.id} is ${report.outcome}; only an unmatched report can be assigned`,
    not_payment: `report ${report.id} is not a payment (${report.kind})`,
    other_merchant: `report ${report.id} came from merchant ${report.pid}; order ${order.tradeNo} belongs to merchant ${order.pid}`,
    paid: `order ${order.tradeNo} is already paid`,
    closed: `order ${order.tradeNo} is closed`,
    no_account: `order ${order.tradeNo} has no receiving account (creation failed or no pay type chosen)`,
    created_after: `order ${order.tradeNo} was created after the payment arrived`,
    ended_before: `order ${order.tradeNo} had ended more than ${matchWindow} s before the payment arrived`,
  };
  return words[code];
}

export function assignNote(actor: string, reason: string, report: StoredReport, order: Order): Reason {
  const differs = report.amount !== order.tradeAmount ? { reported: report.amount, payable: order.tradeAmount } : {};
  return because("assigned", { no: order.tradeNo, by: actor, why: reason, ...differs });
}
