// What an order's page and a report's page show, read in one place for the console (and any
// later CLI view): the order with its merchant, account, notification, reports, the operator
// actions the audit log holds, the timeline built from all of it and which actions apply now;
// a report with its order and, for money that matched nothing, the orders it could be assigned to.
import type { AuditEntry } from "../admin/store.ts";
import { PAYMENT_REPORT_KINDS } from "../assign-report.ts";
import type { Gateway } from "../gateway.ts";
import { confirmRefusal } from "../manual-payment.ts";
import { decideCancel } from "../order-state.ts";
import type { Notification, NotificationAttempt, StoredReport } from "../store.ts";
import type { ChannelAccount, Merchant, Order } from "../types.ts";
import { orderTimeline, type TimelineEvent } from "./timeline.ts";
import { foldRepeatedFailures } from "./timeline-fold.ts";

/** Enough for any real order; a page never grows without bound. */
const REPORTS_MAX = 200;
const OPERATOR_EVENTS_MAX = 100;
/** order_ttl's upper bound (settings.ts): no order stays payable longer. */
export const ORDER_TTL_MAX = 86400;
export const CANDIDATES_MAX = 10;

export interface OrderDetail {
  order: Order;
  merchant: Merchant | null;
  account: ChannelAccount | null;
  notification: (Notification & { attempts_log: NotificationAttempt[] }) | null;
  reports: StoredReport[];
  operatorEvents: AuditEntry[];
  /** Repeated identical notification failures folded into one entry (timeline-fold.ts). */
  timeline: TimelineEvent[];
  /** The actions that apply to the order as it is now. */
  can: { replay: boolean; close: boolean; confirm: boolean };
}

export async function orderDetail(gw: Gateway, tradeNo: string): Promise<OrderDetail | null> {
  const order = await gw.store.getOrder(tradeNo);
  if (!order) return null;
  const now = gw.clock.now();
  const [merchant, account, notification, reports, audit] = await Promise.all([
    gw.store.getMerchant(order.pid),
    order.accountId === null ? null : gw.store.getChannel(order.accountId),
    gw.store.getNotification(tradeNo),
    gw.store.browse.reportsForOrder(tradeNo, REPORTS_MAX),
    gw.store.admin.listAudit({ target: `order:${tradeNo}`, limit: OPERATOR_EVENTS_MAX }),
  ]);
  const operatorEvents = audit.reverse();
  const timeline = foldRepeatedFailures(orderTimeline({
    order, account, reports, notification, now,
    operatorEvents: operatorEvents.map((e) => ({ atMs: e.at * 1000, actor: e.actor, action: e.action, reason: e.reason })),
  }));
  const can = { replay: notification !== null, close: decideCancel(order, now).ok, confirm: confirmRefusal(order) === null };
  return { order, merchant, account, notification, reports, operatorEvents, timeline, can };
}

export interface ReportDetail {
  report: StoredReport;
  /** The order it paid or named. */
  order: Order | null;
  /** Money that matched nothing: an operator may assign it to an order. */
  assignable: boolean;
  /** The orders it could pay, its pay type first, then nearest amount (only when assignable). */
  candidates: Order[];
}

export function isAssignable(r: StoredReport): boolean {
  return r.outcome === "unmatched" && PAYMENT_REPORT_KINDS.includes(r.kind) && r.amount !== null;
}

export async function reportDetail(gw: Gateway, id: number): Promise<ReportDetail | null> {
  const report = await gw.store.browse.getReport(id);
  if (!report) return null;
  const order = report.tradeNo ? await gw.store.getOrder(report.tradeNo) : null;
  const assignable = isAssignable(report);
  const candidates = assignable
    ? await gw.store.browse.assignCandidates({
        pid: report.pid ?? undefined, at: report.createdAt, window: (await gw.settings()).int("match_window"),
        maxLifetime: ORDER_TTL_MAX, amount: report.amount!, payType: report.payType, limit: CANDIDATES_MAX,
      })
    : [];
  return { report, order, assignable, candidates };
}
