// The assignment unit: read the report and the order, check them with the core's rule, pay the
// order (with its outbox row) and mark the report matched, in one immediate transaction. Two
// operators assigning the same report at once: the second finds it matched and changes nothing.
import type { Database } from "bun:sqlite";
import type { AssignReportResult, AssignReportUnit } from "../../core/assign-report.ts";
import { getReport } from "./browse.ts";
import { getOrder } from "./orders.ts";
import { payOrder } from "./pay.ts";
import { reasonColumns } from "../report-reasons.ts";
import { storedTradeNo } from "./order-keys.ts";

export function assignReport(db: Database, u: AssignReportUnit): AssignReportResult {
  return db.transaction((): AssignReportResult => {
    const report = getReport(db, u.reportId);
    if (!report) return { kind: "not_found", what: "report" };
    const order = getOrder(db, u.tradeNo);
    if (!order) return { kind: "not_found", what: "order" };
    const problem = u.check(report, order);
    if (problem) return { kind: "refused", reason: problem };
    const pay = payOrder(db, u.pay(order));
    if (pay.kind !== "paid") return { kind: "refused", reason: pay.kind === "not_payable" ? pay.reason : `order ${u.tradeNo} is ${pay.kind.replace("_", " ")}` };
    const note = u.note(report, pay.order);
    const c = reasonColumns(note);
    const r = db
      .query("UPDATE reports SET outcome = 'matched', trade_no = $t, reason = $reason, reason_code = $code, reason_args = $args WHERE id = $id AND outcome = 'unmatched'")
      .run({ t: storedTradeNo(db, u.tradeNo), reason: c.reason, code: c.reasonCode ?? null, args: c.reasonArgs ?? null, id: u.reportId });
    if (r.changes !== 1) throw new Error(`report ${u.reportId} changed during its assignment`);
    return { kind: "assigned", report: { ...report, ...c, outcome: "matched", tradeNo: u.tradeNo }, order: pay.order, notificationId: pay.notificationId };
  }).immediate();
}
