// The operator's four actions on an order, each audited once here so the console and the CLI
// (CLI_ACTOR) cannot differ: close a pending order (the merchant's cancel path), send the
// notification again, confirm the payment by hand (补单) and assign an unmatched report. Each
// calls the core function the protocols and the CLI already use, then writes the audit entry
// with the order's state before and after. A refusal changes nothing and writes nothing; it
// carries a code the console words in its language and the English message the CLI prints.
import { type Actor, audit } from "./admin/audit.ts";
import { type AssignRefusalCode, assignRefusal } from "./assign-report.ts";
import { cancelOrder } from "./cancel-order.ts";
import type { Gateway } from "./gateway.ts";
import { assignReportToOrder, type ConfirmRefusalCode, confirmPaymentByHand, confirmRefusal, type ReasonCode, reasonCode } from "./manual-payment.ts";
import { effectiveStatus, STATUS_NAMES } from "./order-state.ts";
import type { Notification, StoredReport } from "./store.ts";
import { type Order, OrderStatus } from "./types.ts";

export type ActionRefusalCode =
  | "no_order"
  | "no_report"
  | "no_notification"
  | "not_pending"
  | "changed"
  | ReasonCode
  | ConfirmRefusalCode
  | AssignRefusalCode;

export interface ActionRefusal {
  code: ActionRefusalCode;
  /** English, for the CLI and the log. */
  message: string;
}

export type ActionResult<T> = { ok: true; value: T } | { ok: false; refusal: ActionRefusal };

const refuse = (code: ActionRefusalCode, message: string): { ok: false; refusal: ActionRefusal } => ({ ok: false, refusal: { code, message } });
const target = (tradeNo: string) => `order:${tradeNo}`;

/** What the audit log keeps of an order: its state as the operator reads it. */
export function orderState(o: Order, now: number) {
  return { status: STATUS_NAMES[effectiveStatus(o, now)], trade_amount: o.tradeAmount, paid_at: o.paidAt, closed_at: o.closedAt };
}

function notificationState(n: Notification) {
  return { status: n.status, attempts: n.attempts, next_attempt_at_ms: n.status === "pending" ? n.nextAttemptAt : null };
}

/** `reason`: given by a bulk close (core/order-bulk.ts), kept in each order's audit entry. */
export async function closeOrderAs(gw: Gateway, actor: Actor, tradeNo: string, reason?: string): Promise<ActionResult<Order>> {
  const before = await gw.store.getOrder(tradeNo);
  if (!before) return refuse("no_order", `no order ${tradeNo}`);
  const r = await cancelOrder(gw, before);
  if (!r.ok) {
    const fresh = (await gw.store.getOrder(tradeNo)) ?? before;
    return refuse(effectiveStatus(fresh, gw.clock.now()) === OrderStatus.Pending ? "changed" : "not_pending", r.reason);
  }
  const after = (await gw.store.getOrder(tradeNo))!;
  await audit(gw, { actor, action: "order.close", target: target(tradeNo), reason, before: orderState(before, gw.clock.now()), after: orderState(after, gw.clock.now()) });
  return { ok: true, value: after };
}

/** Due now (also when delivered or given up); the worker in this process is woken at once. */
export async function replayNotificationAs(gw: Gateway, actor: Actor, tradeNo: string, reason?: string): Promise<ActionResult<Notification>> {
  const before = await gw.store.getNotification(tradeNo);
  if (!before || !(await gw.store.requeueNotification(tradeNo, gw.clock.nowMs()))) {
    return refuse("no_notification", `no notification for order ${tradeNo} (an order without notify_url has none)`);
  }
  gw.notificationQueued();
  const after = (await gw.store.getNotification(tradeNo))!;
  await audit(gw, { actor, action: "notification.replay", target: target(tradeNo), reason, before: notificationState(before), after: notificationState(after) });
  return { ok: true, value: after };
}

export async function confirmByHandAs(gw: Gateway, actor: Actor, tradeNo: string, reason: string): Promise<ActionResult<Order>> {
  const bad = reasonCode(reason);
  const before = await gw.store.getOrder(tradeNo);
  const r = await confirmPaymentByHand(gw, tradeNo, { actor: actor.name, reason });
  if (!r.ok) {
    // The same checks as the function's, on the rows now, for a code; "changed" when they pass (a race).
    const code = bad ?? (before ? (confirmRefusal((await gw.store.getOrder(tradeNo)) ?? before) ?? "changed") : "no_order");
    return refuse(code, r.reason);
  }
  await audit(gw, {
    actor, action: "order.confirm", target: target(tradeNo), reason: reason.trim(),
    before: before && orderState(before, gw.clock.now()), after: { ...orderState(r.order, gw.clock.now()), report_id: r.report.reportId },
  });
  return { ok: true, value: r.order };
}

export interface Assigned {
  order: Order;
  report: StoredReport;
}

export async function assignReportAs(gw: Gateway, actor: Actor, reportId: number, tradeNo: string, reason: string): Promise<ActionResult<Assigned>> {
  const bad = reasonCode(reason);
  const [report, before] = [await gw.store.browse.getReport(reportId), await gw.store.getOrder(tradeNo)];
  const r = await assignReportToOrder(gw, reportId, tradeNo, { actor: actor.name, reason });
  if (r.kind === "not_found") return r.what === "order" ? refuse("no_order", `no order ${tradeNo}`) : refuse("no_report", `no report ${reportId}`);
  if (r.kind === "refused") {
    // The store's check, again on the rows as they are now, for a code; "changed" when it passes (a race).
    const [reportNow, orderNow] = [await gw.store.browse.getReport(reportId), await gw.store.getOrder(tradeNo)];
    const window = (await gw.settings()).int("match_window");
    const code = bad ?? (reportNow && orderNow ? (assignRefusal(reportNow, orderNow, window) ?? "changed") : "changed");
    return refuse(code, r.reason);
  }
  await audit(gw, {
    actor, action: "report.assign", target: target(tradeNo), reason: reason.trim(),
    before: { ...(before && orderState(before, gw.clock.now())), report_id: reportId, report_outcome: report?.outcome ?? null, report_amount: report?.amount ?? null },
    after: { ...orderState(r.order, gw.clock.now()), report_id: reportId, report_outcome: r.report.outcome },
  });
  return { ok: true, value: { order: r.order, report: r.report } };
}
