/** @jsxImportSource @kitajs/html */
// The outbox page's filter (outbox.tsx): status, merchant and the creation dates (pickers and quick
// ranges, date-filter.tsx), read by core/browse/outbox-query.ts as `xpay notify list` reads its options.
import { OUTBOX_FILTER_FIELDS, OUTBOX_STATUSES, type OutboxFilterCode, type OutboxFilterField, type ParsedOutboxFilter, parseOutboxFilter } from "../../core/browse/outbox-query.ts";
import type { Merchant } from "../../core/types.ts";
import { attr } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import { DATE_PROBLEM_TEXT, DateField, QuickRanges, rangedQuery } from "../date-filter.tsx";
import type { TextKey, Translate } from "../i18n/index.ts";

const PROBLEM_TEXT: Record<OutboxFilterCode, TextKey> = { ...DATE_PROBLEM_TEXT, bad_status: "outbox.e_status", bad_pid: "outbox.e_pid", unknown_pid: "outbox.e_pid" };

type Errors = Partial<Record<OutboxFilterField, string>>;

function Select(p: { name: OutboxFilterField; label: string; value?: string; options: { value: string; label: string }[]; t: Translate; error?: string }) {
  const id = `f-${p.name}`;
  return (
    <div class="field">
      <label for={id} safe>{p.label}</label>
      <select id={id} name={p.name} aria-invalid={p.error ? "true" : undefined} aria-describedby={p.error ? `${id}-error` : undefined}>
        <option value="" safe>{p.t("outbox.all")}</option>
        {p.options.map((o) => <option value={attr(o.value)} selected={o.value === p.value} safe>{o.label}</option>)}
      </select>
      {p.error ? <p class="field-error" id={`${id}-error`} safe>{p.error}</p> : ""}
    </div>
  );
}

export function OutboxFilterForm(p: { values: ParsedOutboxFilter["values"]; errors: Errors; merchants: Merchant[]; t: Translate; tz: string; now: number }) {
  const { t, values: v, errors: e } = p;
  const keep = OUTBOX_FILTER_FIELDS.filter((f) => f !== "from" && f !== "to" && v[f] !== undefined).map((f): [string, string] => [f, v[f]!]);
  return (
    <form method="get" action="/admin/notifications" class="filters" id="outbox-filter">
      <Select name="status" label={t("outbox.col_status")} value={v.status} t={t} error={e.status}
        options={OUTBOX_STATUSES.map((s) => ({ value: s, label: t(`outbox.status_${s}` as TextKey) }))} />
      <Select name="pid" label={t("outbox.f_pid")} value={v.pid} t={t} error={e.pid} options={p.merchants.map((m) => ({ value: String(m.pid), label: `${m.pid} ${m.name}` }))} />
      <DateField name="from" label={t("outbox.f_from")} value={v.from} error={e.from} />
      <DateField name="to" label={t("filters.to")} value={v.to} error={e.to} />
      <QuickRanges path="/admin/notifications" keep={keep} from={v.from} to={v.to} now={p.now} tz={p.tz} t={t} id="outbox-ranges" />
      <div class="actions">
        <button class="btn btn-primary" type="submit" safe>{t("outbox.f_apply")}</button>
        <a class="btn" href="/admin/notifications" safe>{t("outbox.f_clear")}</a>
      </div>
    </form>
  );
}

/** The page's filter from the query string (a quick range resolved into the dates), with its worded problems. */
export async function outboxFilter(ctx: AdminContext) {
  const merchants = await ctx.gw.store.listMerchants();
  const { query, rangeError } = rangedQuery(ctx);
  const parsed = parseOutboxFilter(Object.fromEntries(OUTBOX_FILTER_FIELDS.map((f) => [f, query.get(f)])), ctx.tz, { pids: merchants.map((m) => m.pid) });
  const errors: Errors = Object.fromEntries(Object.entries(parsed.problems).map(([f, x]) => [f, ctx.t(PROBLEM_TEXT[x!.code])]));
  if (rangeError) errors.from = rangeError;
  return { merchants, parsed, errors, bad: Object.keys(errors).length > 0 };
}
