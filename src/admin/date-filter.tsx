/** @jsxImportSource @kitajs/html */
// The date part of every console filter: two pickers (from, and "to" including that day) and the
// quick ranges 今天 / 昨天 / 近 7 天 / 本月 as plain links. A link carries `range=today` and the
// filter's other values; the page resolves it on the server in the operator's zone
// (core/browse/date-range.ts) into the two dates the pickers then show. A picker is
// `type="date"`; a value with a time (an older link, `2026-11-23 14:30`) keeps its time in a
// `datetime-local` one, and a value that is neither stays as typed in a text box beside its error,
// so re-submitting the form never drops what the link said.
import { applyQuickRange, QUICK_RANGES, quickRangeOf } from "../core/browse/date-range.ts";
import { attr } from "./components.tsx";
import type { AdminContext } from "./context.ts";
import type { TextKey, Translate } from "./i18n/index.ts";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})$/;
/** A picker shows nothing for a date that does not exist (2026-02-30): such a value stays text. */
const onCalendar = (d: string) => DATE.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

const RANGE_TEXT: Record<(typeof QUICK_RANGES)[number], TextKey> = {
  today: "filters.today", yesterday: "filters.yesterday", "7d": "filters.7d", month: "filters.month",
};

/** A picker for one end of a range, its label above and its inline error below. */
export function DateField(p: { name: string; label: string; value?: string; error?: string }) {
  const id = `f-${p.name}`;
  const v = p.value ?? "";
  const dt = DATE_TIME.exec(v);
  const [type, shown] = v === "" || onCalendar(v) ? ["date", v] : dt && onCalendar(dt[1]!) ? ["datetime-local", `${dt[1]}T${dt[2]}`] : ["text", v];
  return (
    <div class="field field-date">
      <label for={id} safe>{p.label}</label>
      <input id={id} name={p.name} type={type} value={attr(shown)} maxlength={type === "text" ? 64 : undefined}
        aria-invalid={p.error ? "true" : undefined} aria-describedby={p.error ? `${id}-error` : undefined} />
      {p.error ? <p class="field-error" id={`${id}-error`} safe>{p.error}</p> : ""}
    </div>
  );
}

/**
 * The quick-range links of a filter at `path`: each keeps `keep` (the filter's other values, without
 * the page position) and says `range=<name>`; the one the pickers hold now is marked current.
 */
export function QuickRanges(p: { path: string; keep: [string, string][]; from?: string; to?: string; now: number; tz: string; t: Translate; id: string }) {
  const current = quickRangeOf(p.from, p.to, p.now, p.tz);
  return (
    <div class="field quick-ranges" id={p.id}>
      <span class="range-label" id={`${p.id}-label`} safe>{p.t("filters.quick")}</span>
      <nav class="range-links" aria-labelledby={`${p.id}-label`}>
        {QUICK_RANGES.map((r) => {
          const q = new URLSearchParams(p.keep);
          q.set("range", r);
          return (
            <a class={r === current ? "btn btn-small btn-primary" : "btn btn-small"} href={attr(`${p.path}?${q.toString()}`)}
              aria-current={r === current ? "true" : undefined} data-range={r} safe>{p.t(RANGE_TEXT[r])}</a>
          );
        })}
      </nav>
    </div>
  );
}

/**
 * The request's query with a quick range resolved into `fields` (see applyQuickRange), and the
 * text of its problem (an unknown range name) for the "from" field.
 */
export function rangedQuery(ctx: AdminContext, fields: { from: string; to: string } = { from: "from", to: "to" }): { query: URLSearchParams; rangeError?: string } {
  const r = applyQuickRange(ctx.query, fields, ctx.gw.clock.now(), ctx.tz);
  return { query: r.query, rangeError: r.problem ? ctx.t("filters.e_bad_range") : undefined };
}

/** The filter's problem codes shared by every date range, worded. */
export const DATE_PROBLEM_TEXT = { bad_date: "filters.e_bad_date", range_reversed: "filters.e_range_reversed", bad_range: "filters.e_bad_range" } as const satisfies Record<string, TextKey>;
