// The operator's two ways to say "this money arrived" when no report paid the order by itself:
// confirm an order by hand (补单) and assign an unmatched report to an order. Both need a reason,
// both pay through the store's pay unit (the order, its outbox row and the stored report in one
// commit), so the merchant is notified exactly as for a matched report. Console and CLI call these.
import { type AssignReportResult, assignNote, assignProblem } from "./assign-report.ts";
import type { Gateway } from "./gateway.ts";
import { payUnit } from "./pay-order.ts";
import { because, type Reason } from "./reasons.ts";
import { type MatchDecision, matched, notPaidReason } from "./report-match.ts";
import type { SettleReportResult } from "./store.ts";
import { type Order, OrderStatus } from "./types.ts";

export interface OperatorAct {
  /** Who acts: an operator's name, or "cli". */
  actor: string;
  reason: string;
}

export const REASON_MAX = 200;

export type ReasonCode = "reason_missing" | "reason_too_long";

/** The reason every manual payment stores: why the text is not acceptable, as a code. */
export function reasonCode(reason: string): ReasonCode | null {
  const r = reason.trim();
  if (r.length < 2) return "reason_missing";
  return r.length > REASON_MAX ? "reason_too_long" : null;
}

/** reasonCode in the CLI's words. */
export function reasonProblem(reason: string): string | null {
  const code = reasonCode(reason);
  if (code === "reason_missing") return "a reason is required (what shows the money arrived, e.g. 支付宝账单 2026-11-23 10:02 ¥9.98)";
  return code === "reason_too_long" ? `the reason is too long (at most ${REASON_MAX} characters)` : null;
}

export type ConfirmRefusalCode = "paid" | "closed" | "no_account";

/** Pending or timed out (at any age), with a receiving account: what a confirmation by hand may pay. */
export function confirmRefusal(o: Order): ConfirmRefusalCode | null {
  if (o.status === OrderStatus.Paid) return "paid";
  if (o.status === OrderStatus.Closed) return "closed";
  return o.status === OrderStatus.Failed || o.tradeAmount === null ? "no_account" : null;
}

/** confirmRefusal as a stored reason (core/reasons.ts). */
export function confirmReason(o: Order): Reason | null {
  const code = confirmRefusal(o);
  const no = o.tradeNo;
  if (code === "paid") return because("confirm_paid", { no });
  if (code === "closed") return because("closed", { no });
  return code === "no_account" ? because("confirm_no_account", { no }) : null;
}

/** confirmRefusal in the CLI's words. */
export function confirmProblem(o: Order): string | null {
  return confirmReason(o)?.text ?? null;
}

export type ConfirmResult = { ok: true; order: Order; report: SettleReportResult } | { ok: false; reason: string };

export async function confirmPaymentByHand(gw: Gateway, tradeNo: string, act: OperatorAct): Promise<ConfirmResult> {
  const bad = reasonProblem(act.reason);
  if (bad) return { ok: false, reason: bad };
  const order = await gw.store.getOrder(tradeNo);
  if (!order) return { ok: false, reason: `no order ${tradeNo}` };
  const refused = confirmProblem(order);
  if (refused) return { ok: false, reason: refused };
  const merchant = await gw.store.getMerchant(order.pid);
  if (!merchant) return { ok: false, reason: `merchant ${order.pid} of order ${tradeNo} no longer exists` };
  const window = (await gw.settings()).int("match_window");
  const now = gw.clock.now();
  const result = await gw.store.settleReport({
    report: {
      kind: "operator", pid: order.pid, client: act.actor, raw: JSON.stringify({ trade_no: tradeNo, by: act.actor, reason: act.reason.trim() }),
      amount: order.tradeAmount, payType: order.payType, channelCode: "", dedupeKey: null, outcome: "unmatched", reason: "", tradeNo: null, createdAt: now,
    },
    // Re-checked on the row the transaction reads: a report may have paid it a moment ago.
    decide: (view): MatchDecision => {
      const current = view.orderByTradeNo(tradeNo);
      if (!current) return { kind: "unmatched", reason: because("no_order", { no: tradeNo }) };
      const problem = confirmReason(current);
      return problem ? { kind: "unmatched", reason: problem } : matched(current, { by: act.actor });
    },
    pay: (o) => ({ ...payUnit(gw, merchant, window, o.tradeNo), acceptTimedOutSince: 0 }),
    notPaid: notPaidReason,
  });
  gw.metrics.report("operator", result.outcome);
  if (result.pay?.kind !== "paid") return { ok: false, reason: result.reason };
  gw.metrics.orderPaid(result.pay.order);
  if (result.pay.notificationId !== null) gw.notificationQueued();
  gw.log.event("order.confirmed_by_hand", { trade_no: tradeNo, by: act.actor });
  return { ok: true, order: result.pay.order, report: result };
}

export async function assignReportToOrder(gw: Gateway, reportId: number, tradeNo: string, act: OperatorAct): Promise<AssignReportResult> {
  const bad = reasonProblem(act.reason);
  if (bad) return { kind: "refused", reason: bad };
  const order = await gw.store.getOrder(tradeNo);
  const merchant = order ? await gw.store.getMerchant(order.pid) : null;
  if (!order || !merchant) return { kind: "not_found", what: "order" };
  const window = (await gw.settings()).int("match_window");
  const result = await gw.store.assignReport({
    reportId,
    tradeNo,
    check: (report, current) => assignProblem(report, current, window),
    pay: (o) => ({ ...payUnit(gw, merchant, window, o.tradeNo), acceptTimedOutSince: 0 }),
    note: (report, current) => assignNote(act.actor, act.reason.trim(), report, current),
  });
  if (result.kind === "assigned") {
    gw.metrics.orderPaid(result.order);
    if (result.notificationId !== null) gw.notificationQueued();
    gw.log.event("report.assigned", { report_id: reportId, trade_no: tradeNo, by: act.actor });
  }
  return result;
}
