// The operator's assignment of an unmatched report to an order: both rows locked, the core's check,
// the payment with its outbox row and the report marked matched, in one commit. Two operators (or
// two instances) assigning the same report: the second waits on the report's row and finds it matched.
import type { SQL } from "bun";
import type { AssignReportResult, AssignReportUnit } from "../../core/assign-report.ts";
import { getOrder } from "./orders.ts";
import { payIn } from "./pay.ts";
import { reasonColumns } from "../report-reasons.ts";
import { getReport } from "./reports.ts";
import { unit } from "./tx.ts";

export function assignReport(sql: SQL, u: AssignReportUnit): Promise<AssignReportResult> {
  return unit(sql, async (tx): Promise<AssignReportResult> => {
    const report = await getReport(tx, u.reportId, { forUpdate: true });
    if (!report) return { kind: "not_found", what: "report" };
    const order = await getOrder(tx, u.tradeNo, { forUpdate: true });
    if (!order) return { kind: "not_found", what: "order" };
    const problem = u.check(report, order);
    if (problem) return { kind: "refused", reason: problem };
    const pay = await payIn(tx, u.pay(order));
    if (pay.kind !== "paid") return { kind: "refused", reason: pay.kind === "not_payable" ? pay.reason : `order ${u.tradeNo} is ${pay.kind.replace("_", " ")}` };
    const note = u.note(report, pay.order);
    const c = reasonColumns(note);
    const r = await tx`UPDATE reports SET outcome = 'matched', trade_no = ${u.tradeNo}, reason = ${c.reason}, reason_code = ${c.reasonCode ?? null}, reason_args = ${c.reasonArgs ?? null}
      WHERE id = ${u.reportId} AND outcome = 'unmatched'`;
    if (r.count !== 1) throw new Error(`report ${u.reportId} changed during its assignment`);
    return { kind: "assigned", report: { ...report, ...c, outcome: "matched", tradeNo: u.tradeNo }, order: pay.order, notificationId: pay.notificationId };
  });
}
