// The notification outbox's filter as typed (the console's /admin/notifications query string,
// `xpay notify list` options) -> a NotificationFilter, one problem per field, like order-query.ts:
// a bad value is refused with why, never dropped. Dates are the operator's local days (date-range.ts).
import type { NotificationFilter } from "../store.ts";
import { type DateRangeCode, parseDateRange } from "./date-range.ts";

export const OUTBOX_STATUSES = ["pending", "failed", "delivered"] as const;
export const OUTBOX_FILTER_FIELDS = ["status", "pid", "from", "to"] as const;
export type OutboxFilterField = (typeof OUTBOX_FILTER_FIELDS)[number];
export type OutboxFilterCode = "bad_status" | "bad_pid" | "unknown_pid" | DateRangeCode;

export interface ParsedOutboxFilter {
  filter: Omit<NotificationFilter, "limit">;
  values: Partial<Record<OutboxFilterField, string>>;
  problems: Partial<Record<OutboxFilterField, { code: OutboxFilterCode; message: string }>>;
}

export function parseOutboxFilter(input: Partial<Record<OutboxFilterField, string | null | undefined>>, zone: string, known: { pids?: readonly number[] } = {}): ParsedOutboxFilter {
  const values: ParsedOutboxFilter["values"] = {};
  for (const f of OUTBOX_FILTER_FIELDS) {
    const v = (input[f] ?? "").trim();
    if (v !== "") values[f] = v.slice(0, 100);
  }
  const out: ParsedOutboxFilter = { filter: {}, values, problems: {} };
  if (values.status !== undefined) {
    if ((OUTBOX_STATUSES as readonly string[]).includes(values.status)) out.filter.status = values.status;
    else out.problems.status = { code: "bad_status", message: `must be one of: ${OUTBOX_STATUSES.join(", ")}` };
  }
  if (values.pid !== undefined) {
    const pid = /^\d{1,10}$/.test(values.pid) ? Number(values.pid) : null;
    if (pid === null) out.problems.pid = { code: "bad_pid", message: "must be a merchant number (pid)" };
    else if (known.pids && !known.pids.includes(pid)) out.problems.pid = { code: "unknown_pid", message: `no merchant ${pid}` };
    else out.filter.pid = pid;
  }
  // The outbox keeps milliseconds; a local day's bounds are whole seconds.
  const range = parseDateRange(values.from, values.to, zone);
  Object.assign(out.problems, range.problems);
  if (range.from !== undefined) out.filter.fromMs = range.from * 1000;
  if (range.to !== undefined) out.filter.toMs = range.to * 1000;
  return out;
}

export function outboxQueryString(values: ParsedOutboxFilter["values"]): string {
  const q = new URLSearchParams();
  for (const f of OUTBOX_FILTER_FIELDS) if (values[f] !== undefined) q.set(f, values[f]!);
  return q.toString();
}
