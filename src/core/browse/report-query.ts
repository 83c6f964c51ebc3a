// The operator's report filter as typed (console query string, `xpay report list` options) -> a
// ReportQuery, one problem per field, like order-query.ts: a bad value is refused, never dropped.
// Dates are received-at local days (date-range.ts).
import type { ReportRecord } from "../store.ts";
import { type DateRangeCode, parseDateRange } from "./date-range.ts";
import type { ReportQuery } from "./store.ts";

export const REPORT_OUTCOMES: readonly ReportRecord["outcome"][] = ["unmatched", "matched", "duplicate", "rejected", "accepted"];
/** Payments first (what an operator looks for), then the operator's own entries, then heartbeats. */
export const REPORT_KINDS: readonly ReportRecord["kind"][] = ["message", "amount", "third-account", "vmq-push", "operator", "heart", "third-heart", "vmq-heart"];

export const REPORT_FILTER_FIELDS = ["outcome", "kind", "pid", "money", "from", "to", "before"] as const;
/** "yes": reports carrying an amount (money); "no": those without (forwarded messages that were no payment). */
export const REPORT_MONEY = ["yes", "no"] as const;
export type ReportFilterField = (typeof REPORT_FILTER_FIELDS)[number];
export type ReportFilterInput = Partial<Record<ReportFilterField, string | null | undefined>>;
export type ReportFilterCode = "bad_outcome" | "bad_kind" | "bad_pid" | "unknown_pid" | "bad_money" | "bad_before" | DateRangeCode;

export interface ParsedReportFilter {
  filter: Omit<ReportQuery, "limit">;
  values: Partial<Record<ReportFilterField, string>>;
  problems: Partial<Record<ReportFilterField, { code: ReportFilterCode; message: string }>>;
}

/** `zone`: the operator's, in which the from/to dates are local days (date-range.ts). */
export function parseReportFilter(input: ReportFilterInput, zone: string, known: { pids?: readonly number[] } = {}): ParsedReportFilter {
  const values: ParsedReportFilter["values"] = {};
  for (const f of REPORT_FILTER_FIELDS) {
    const v = (input[f] ?? "").trim();
    if (v !== "") values[f] = v.slice(0, 100);
  }
  const filter: ParsedReportFilter["filter"] = {};
  const problems: ParsedReportFilter["problems"] = {};
  if (values.outcome !== undefined) {
    if ((REPORT_OUTCOMES as readonly string[]).includes(values.outcome)) filter.outcome = values.outcome;
    else problems.outcome = { code: "bad_outcome", message: `must be one of: ${REPORT_OUTCOMES.join(", ")}` };
  }
  if (values.kind !== undefined) {
    if ((REPORT_KINDS as readonly string[]).includes(values.kind)) filter.kind = values.kind;
    else problems.kind = { code: "bad_kind", message: `must be one of: ${REPORT_KINDS.join(", ")}` };
  }
  if (values.pid !== undefined) {
    const pid = /^\d{1,10}$/.test(values.pid) ? Number(values.pid) : null;
    if (pid === null) problems.pid = { code: "bad_pid", message: "must be a merchant number (pid)" };
    else if (known.pids && !known.pids.includes(pid)) problems.pid = { code: "unknown_pid", message: `no merchant ${pid}` };
    else filter.pid = pid;
  }
  if (values.money !== undefined) {
    if (values.money === "yes" || values.money === "no") filter.money = values.money === "yes";
    else problems.money = { code: "bad_money", message: `must be one of: ${REPORT_MONEY.join(", ")}` };
  }
  const range = parseDateRange(values.from, values.to, zone);
  Object.assign(problems, range.problems);
  if (range.from !== undefined) filter.from = range.from;
  if (range.to !== undefined) filter.to = range.to;
  if (values.before !== undefined) {
    if (/^\d{1,15}$/.test(values.before)) filter.beforeId = Number(values.before);
    else problems.before = { code: "bad_before", message: "must be a report id" };
  }
  return { filter, values, problems };
}

/** The query string of a filtered list, with the page position when given. */
export function reportQueryString(values: ParsedReportFilter["values"], before?: number): string {
  const q = new URLSearchParams();
  for (const f of REPORT_FILTER_FIELDS) if (f !== "before" && values[f] !== undefined) q.set(f, values[f]!);
  if (before !== undefined) q.set("before", String(before));
  return q.toString();
}
