// The event conditions: rows written since the last pass (reports, notification attempts), read
// behind a cursor instead of hooks in the money path, so creating and paying an order costs nothing
// more. Each event fires once and has no "resolved": money that arrived stays arrived.
import { formatYuan } from "../money.ts";
import { OrderStatus } from "../types.ts";
import type { Thresholds } from "./settings.ts";
import type { AlertEvents } from "./store.ts";
import type { Finding } from "./types.ts";

type Report = AlertEvents["reports"][number];

const money = (r: Report) => (r.amount === null ? "an amount" : `${formatYuan(r.amount)} yuan`);
const via = (r: Report) => `${r.kind} report ${r.id}${r.pid !== null ? ` (merchant ${r.pid})` : ""}`;

/** The order named by a report had ended (timed out or closed) when the money came. */
function endedBefore(r: Report): boolean {
  if (r.orderStatus === OrderStatus.TimedOut || r.orderStatus === OrderStatus.Closed) return true;
  return r.orderStatus === OrderStatus.Pending && r.expireTime !== null && r.expireTime < r.createdAt;
}

/** What one stored report means for the operator, or null when it needs no alert. */
export function reportFinding(r: Report, t: Thresholds): Finding | null {
  const refs = { reportId: r.id, ...(r.pid !== null ? { pid: r.pid } : {}), ...(r.tradeNo ? { tradeNo: r.tradeNo } : {}) };
  if (r.outcome === "matched") {
    // Paid within the match window although the order had timed out: the shop may have given up on it.
    const late = r.paidAt !== null && r.expireTime !== null && r.paidAt > r.expireTime;
    if (!late || !t.latePayment || !r.tradeNo) return null;
    return {
      key: `late_payment:report:${r.id}`,
      condition: "late_payment",
      title: `Late payment: order ${r.tradeNo} was paid ${money(r)} after it timed out`,
      detail: `The payment came ${Math.round((r.paidAt! - r.expireTime!) / 60)} min after the order's expire_time and was credited (match window). The payer may have been told it timed out; check that the merchant delivered.`,
      since: r.createdAt,
      refs,
      command: `xpay order inspect ${r.tradeNo}`,
    };
  }
  // Only money: a forwarded notification that was no payment at all carries no amount.
  if (r.outcome !== "unmatched" || r.amount === null) return null;
  if (r.tradeNo && endedBefore(r)) {
    if (!t.latePayment) return null;
    return {
      key: `late_payment:report:${r.id}`,
      condition: "late_payment",
      title: `Late payment: ${money(r)} arrived for order ${r.tradeNo} after it ended; nothing paid`,
      detail: `${via(r)}: ${r.reason}. The money is in the account; refund the payer or settle with the merchant by hand.`,
      since: r.createdAt,
      refs,
      command: `xpay order inspect ${r.tradeNo}; xpay report list --outcome unmatched`,
    };
  }
  if (!t.unmatched) return null;
  return {
    key: `unmatched_report:report:${r.id}`,
    condition: "unmatched_report",
    title: `Money received with no order: ${money(r)}${r.payType ? ` (${r.payType})` : ""}`,
    detail: `${via(r)} paid no order: ${r.reason}.`,
    since: r.createdAt,
    refs,
    command: `xpay report list${r.pid !== null ? ` --pid ${r.pid}` : ""} --outcome unmatched`,
  };
}

/** Findings of every event since the cursors. */
export function eventFindings(e: AlertEvents, t: Thresholds): Finding[] {
  const reports = e.reports.map((r) => reportFinding(r, t)).filter((f): f is Finding => f !== null);
  const givenUp: Finding[] = !t.notifyGivenUp
    ? []
    : e.givenUp.map((n) => ({
        key: `notify_given_up:notification:${n.notificationId}:${n.attempts}`,
        condition: "notify_given_up",
        title: `Notification of order ${n.tradeNo} (merchant ${n.pid}) given up after ${n.attempts} attempts`,
        detail: `Last answer: ${n.lastStatus !== null ? `HTTP ${n.lastStatus} ` : ""}${n.lastError || "(none)"}. It will not be retried unless replayed.`,
        since: n.at,
        refs: { pid: n.pid, tradeNo: n.tradeNo },
        command: `xpay notify show ${n.tradeNo}; xpay notify replay ${n.tradeNo}`,
      }));
  return [...reports, ...givenUp];
}
