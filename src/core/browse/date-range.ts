// A date range as the operator picks it in a filter (a "from" and an inclusive "to", each a local
// date or date and time, see local-time.ts), and the quick ranges 今天 / 昨天 / 近 7 天 / 本月. A quick
// range is resolved on the server, in the operator's `timezone`, into the same two local dates a
// picker sends: the page then shows them in its pickers and its links carry them, so the next page
// of a "today" list at 00:00:05 is still the day it started on.
import { localDate } from "../stats/calendar.ts";
import { parseLocalTime } from "./local-time.ts";

export const QUICK_RANGES = ["today", "yesterday", "7d", "month"] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

export type DateRangeCode = "bad_date" | "range_reversed" | "bad_range";

export interface DateRangeProblem {
  code: DateRangeCode;
  /** English, without the field's name (the CLI prints `--from must be ...`). */
  message: string;
}

export interface ParsedDateRange {
  /** Unix seconds: `from` inclusive, `to` exclusive (a "to" day ends where the next begins). */
  from?: number;
  to?: number;
  problems: { from?: DateRangeProblem; to?: DateRangeProblem };
}

export const isQuickRange = (v: string): v is QuickRange => (QUICK_RANGES as readonly string[]).includes(v);

/** "2026-11-30" + n days (n may be negative), on the calendar, whatever the zone. */
function addDays(date: string, n: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The local dates (both inclusive) a quick range means at `now` in `zone`. */
export function quickRangeDates(range: QuickRange, now: number, zone: string): { from: string; to: string } {
  const today = localDate(now, zone);
  switch (range) {
    case "today":
      return { from: today, to: today };
    case "yesterday":
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case "7d":
      return { from: addDays(today, -6), to: today };
    case "month":
      return { from: `${today.slice(0, 8)}01`, to: today };
  }
}

/** Which quick range the dates are at `now`, if any (the link shown as the current one). */
export function quickRangeOf(from: string | undefined, to: string | undefined, now: number, zone: string): QuickRange | null {
  for (const r of QUICK_RANGES) {
    const d = quickRangeDates(r, now, zone);
    if (d.from === from && d.to === to) return r;
  }
  return null;
}

const DATE_HELP = (zone: string) => `must be a date (2026-11-23) or a date and time (2026-11-23 14:30) in ${zone}`;

/** A from/to pair as typed: each a local date or date and time; "to" a bare date includes that day. */
export function parseDateRange(fromText: string | undefined, toText: string | undefined, zone: string): ParsedDateRange {
  const out: ParsedDateRange = { problems: {} };
  if (fromText !== undefined) {
    const t = parseLocalTime(fromText, zone);
    if (t === null) out.problems.from = { code: "bad_date", message: DATE_HELP(zone) };
    else out.from = t;
  }
  if (toText !== undefined) {
    const t = parseLocalTime(toText, zone, { endOfDay: true });
    if (t === null) out.problems.to = { code: "bad_date", message: DATE_HELP(zone) };
    else out.to = t;
  }
  if (out.from !== undefined && out.to !== undefined && out.to <= out.from) {
    out.problems.to = { code: "range_reversed", message: "must be after the start of the range" };
  }
  return out;
}

/**
 * A query's `range` (a quick range) resolved into its from/to fields, in place of any typed there.
 * An unknown name is a problem of the "from" field; `range` itself never reaches the links.
 */
export function applyQuickRange(query: URLSearchParams, fields: { from: string; to: string }, now: number, zone: string): { query: URLSearchParams; problem?: DateRangeProblem } {
  const name = (query.get("range") ?? "").trim();
  if (name === "") return { query };
  const q = new URLSearchParams(query);
  q.delete("range");
  if (!isQuickRange(name)) return { query: q, problem: { code: "bad_range", message: `must be one of: ${QUICK_RANGES.join(", ")}` } };
  const d = quickRangeDates(name, now, zone);
  q.set(fields.from, d.from);
  q.set(fields.to, d.to);
  return { query: q };
}
