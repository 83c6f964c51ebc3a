// The operator pays an order with a report that matched nothing (money received, no order found:
// the payer paid a different amount, the phone named no account). The rule is pure; the store
// runs it inside the one transaction that pays the order and marks the report matched.
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
  note: (report: StoredReport, order: Order) => string;
}

export type AssignReportResult =
  | { kind: "assigned"; report: StoredReport; order: Order; notificationId: number | null }
  | { kind: "refused"; reason: string }
  | { kind: "not_found"; what: "report" | "order" };

/**
 * An unmatched payment report of the order's merchant (or of a third-account watcher), and an
 * order that was payable when the money arrived: created before it, not ended longer than the
 * match window before it. The amount may differ (that is often why nothing matched); the note says so.
 */
export function assignProblem(report: StoredReport, order: Order, matchWindow: number): string | null {
  if (report.outcome !== "unmatched") return `report ${report.id} is ${report.outcome}; only an unmatched report can be assigned`;
  if (!PAYMENT_REPORT_KINDS.includes(report.kind) || report.amount === null) return `report ${report.id} is not a payment (${report.kind})`;
  if (report.pid !== null && report.pid !== order.pid) return `report ${report.id} came from merchant ${report.pid}; order ${order.tradeNo} belongs to merchant ${order.pid}`;
  if (order.status === OrderStatus.Paid) return `order ${order.tradeNo} is already paid`;
  if (order.status === OrderStatus.Closed) return `order ${order.tradeNo} is closed`;
  if (order.status === OrderStatus.Failed || order.tradeAmount === null) return `order ${order.tradeNo} has no receiving account (creation failed or no pay type chosen)`;
  if (order.createdAt > report.createdAt) return `order ${order.tradeNo} was created after the payment arrived`;
  if (order.expireTime < report.createdAt - matchWindow) return `order ${order.tradeNo} had ended more than ${matchWindow} s before the payment arrived`;
  return null;
}

export function assignNote(actor: string, reason: string, report: StoredReport, order: Order): string {
  const differs = report.amount !== order.tradeAmount ? `; reported ${report.amount} cents, order payable ${order.tradeAmount} cents` : "";
  return `assigned to ${order.tradeNo} by ${actor}: ${reason}${differs}`;
}
