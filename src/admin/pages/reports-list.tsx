/** @jsxImportSource @kitajs/html */
// GET /admin/reports: every report newest first, filtered by outcome, kind, money or not and merchant
// and received dates in the operator's zone (pickers and quick ranges, date-filter.tsx)
// (core/browse/report-query.ts, the CLI's `report list` too), paged by id: "next page" asks for the
// ids below the last one shown, "newest" starts again. A bad filter value is a 422 with its message.
import { reportReason } from "../reason-codes.ts";
import { type ReportFilterCode, type ReportFilterField, parseReportFilter, REPORT_FILTER_FIELDS, REPORT_KINDS, REPORT_OUTCOMES, reportQueryString } from "../../core/browse/report-query.ts";
import type { StoredReport } from "../../core/store.ts";
import type { Merchant } from "../../core/types.ts";
import { attr, Notice, PageHead, Pager, Time } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import type { TextKey, Translate } from "../i18n/index.ts";
import { DATE_PROBLEM_TEXT, DateField, QuickRanges, rangedQuery } from "../date-filter.tsx";
import { page } from "../render.tsx";
import { kindName, OutcomeBadge, yuan } from "./order-bits.tsx";

export const REPORTS_PAGE_SIZE = 50;

const PROBLEM_TEXT: Record<ReportFilterCode, TextKey> = {
  ...DATE_PROBLEM_TEXT,
  bad_outcome: "reports.e_outcome", bad_kind: "reports.e_kind", bad_pid: "reports.e_pid", unknown_pid: "reports.e_pid", bad_money: "reports.e_money", bad_before: "reports.e_before",
};

type Values = Partial<Record<ReportFilterField, string>>;
type Errors = Partial<Record<ReportFilterField, string>>;

function Select(p: { name: ReportFilterField; label: string; value?: string; options: { value: string; label: string }[]; t: Translate; error?: string }) {
  const id = `f-${p.name}`;
  return (
    <div class="field">
      <label for={id} safe>{p.label}</label>
      <select id={id} name={p.name} aria-invalid={p.error ? "true" : undefined} aria-describedby={p.error ? `${id}-error` : undefined}>
        <option value="" safe>{p.t("reports.f_any")}</option>
        {p.options.map((o) => <option value={attr(o.value)} selected={o.value === p.value} safe>{o.label}</option>)}
      </select>
      {p.error ? <p class="field-error" id={`${id}-error`} safe>{p.error}</p> : ""}
    </div>
  );
}

function FilterForm(p: { values: Values; errors: Errors; merchants: Merchant[]; t: Translate; tz: string; now: number }) {
  const { t, values: v, errors: e } = p;
  const keep = REPORT_FILTER_FIELDS.filter((f) => f !== "from" && f !== "to" && f !== "before" && v[f] !== undefined).map((f): [string, string] => [f, v[f]!]);
  return (
    <form method="get" action="/admin/reports" class="filters" id="reports-filter">
      <Select name="outcome" label={t("reports.f_outcome")} value={v.outcome} t={t} error={e.outcome}
        options={REPORT_OUTCOMES.map((o) => ({ value: o, label: t(`reports.outcome_${o}` as TextKey) }))} />
      <Select name="kind" label={t("reports.f_kind")} value={v.kind} t={t} error={e.kind} options={REPORT_KINDS.map((k) => ({ value: k, label: kindName(t, k) }))} />
      <Select name="money" label={t("reports.f_money")} value={v.money} t={t} error={e.money}
        options={[{ value: "yes", label: t("reports.money_yes") }, { value: "no", label: t("reports.money_no") }]} />
      <Select name="pid" label={t("reports.f_pid")} value={v.pid} t={t} error={e.pid} options={p.merchants.map((m) => ({ value: String(m.pid), label: `${m.pid} ${m.name}` }))} />
      <DateField name="from" label={t("reports.f_from")} value={v.from} error={e.from} />
      <DateField name="to" label={t("filters.to")} value={v.to} error={e.to} />
      <QuickRanges path="/admin/reports" keep={keep} from={v.from} to={v.to} now={p.now} tz={p.tz} t={t} id="reports-ranges" />
      <div class="actions">
        <button class="btn btn-primary" type="submit" safe>{t("reports.f_apply")}</button>
        <a class="btn" href="/admin/reports" safe>{t("reports.f_clear")}</a>
      </div>
    </form>
  );
}

function ReportsTable(p: { rows: StoredReport[]; merchants: Map<number, Merchant>; t: Translate; tz: string; empty: string }) {
  const { t } = p;
  return (
    <div class="table-wrap cards">
      <table class="table" id="reports-table">
        <thead>
          <tr>
            <th class="num" safe>{t("reports.col_id")}</th>
            <th safe>{t("reports.col_time")}</th>
            <th safe>{t("reports.col_kind")}</th>
            <th safe>{t("reports.col_merchant")}</th>
            <th safe>{t("reports.col_client")}</th>
            <th class="num" safe>{t("reports.col_amount")}</th>
            <th safe>{t("reports.col_outcome")}</th>
            <th safe>{t("reports.col_order")}</th>
            <th safe>{t("reports.col_reason")}</th>
          </tr>
        </thead>
        <tbody>
          {p.rows.length === 0 ? (
            <tr>
              <td colspan="9" class="empty" safe>{p.empty}</td>
            </tr>
          ) : (
            p.rows.map((r) => (
              <tr data-report={String(r.id)}>
                <td class="num c-title"><a href={`/admin/reports/${r.id}`} safe>{`#${r.id}`}</a></td>
                <td class="nowrap c-key" data-label={t("reports.col_time")}><Time at={r.createdAt} tz={p.tz} /></td>
                <td class="nowrap" data-label={t("reports.col_kind")} safe>{kindName(t, r.kind)}</td>
                <td class="nowrap" data-label={t("reports.col_merchant")}>
                  {r.pid === null ? <span class="faint">—</span> : <span safe>{`${r.pid} ${p.merchants.get(r.pid)?.name ?? ""}`}</span>}
                </td>
                <td class="wrap" data-label={t("reports.col_client")} safe>{r.client || "—"}</td>
                <td class="num nowrap c-key" data-label={t("reports.col_amount")} data-cell="amount" safe>{yuan(r.amount)}</td>
                <td class="nowrap c-badge"><OutcomeBadge outcome={r.outcome} t={t} /></td>
                <td class="nowrap mono" data-label={t("reports.col_order")}>{r.tradeNo ? <a href={`/admin/orders/${r.tradeNo}`} safe>{r.tradeNo}</a> : <span class="faint">—</span>}</td>
                <td class="wrap c-full" data-label={t("reports.col_reason")} title={attr(r.reason)} safe>{short(reportReason(r, t))}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

export async function listReports(ctx: AdminContext): Promise<Response> {
  const { gw, t } = ctx;
  const merchants = await gw.store.listMerchants();
  // A quick range (range=today) arrives resolved into the received-at dates.
  const { query, rangeError } = rangedQuery(ctx);
  const parsed = parseReportFilter(Object.fromEntries(REPORT_FILTER_FIELDS.map((f) => [f, query.get(f)])), ctx.tz, { pids: merchants.map((m) => m.pid) });
  const errors: Errors = Object.fromEntries(Object.entries(parsed.problems).map(([f, x]) => [f, t(PROBLEM_TEXT[x!.code])]));
  if (rangeError) errors.from = rangeError;
  const bad = Object.keys(errors).length > 0;
  const rows = bad ? [] : await gw.store.browse.searchReports({ ...parsed.filter, limit: REPORTS_PAGE_SIZE + 1 });
  const shown = rows.slice(0, REPORTS_PAGE_SIZE);
  const last = shown.at(-1);
  const link = (before?: number) => {
    const q = reportQueryString(parsed.values, before);
    return q ? `/admin/reports?${q}` : "/admin/reports";
  };
  const filtered = Object.keys(parsed.values).some((f) => f !== "before");
  return page(ctx, {
    title: t("reports.title"),
    status: bad ? 422 : 200,
    styles: ["orders.css"],
    children: (
      <section>
        <PageHead title={t("reports.title")} lead={t("reports.intro")} />
        <FilterForm values={parsed.values} errors={errors} merchants={merchants} t={t} tz={ctx.tz} now={gw.clock.now()} />
        <p class="filter-note" safe>{t("filters.zone", { zone: ctx.tz })}</p>
        {bad ? <Notice kind="error" text={errors.before ?? t("reports.fix_filter")} id="filter-error" /> : ""}
        <ReportsTable rows={shown} merchants={new Map(merchants.map((m) => [m.pid, m]))} t={t} tz={ctx.tz}
          empty={t(bad || filtered || parsed.filter.beforeId !== undefined ? "reports.none" : "reports.none_at_all")} />
        <Pager
          newer={parsed.filter.beforeId !== undefined ? link() : null}
          older={rows.length > REPORTS_PAGE_SIZE && last ? link(last.id) : null}
          newerLabel={t("reports.newest")}
          olderLabel={t("reports.next")}
        />
      </section>
    ),
  });
}

/** A long reason cut for the list; the page of the report shows it whole. */
const short = (s: string): string => (s.length > 80 ? `${s.slice(0, 79)}…` : s);
