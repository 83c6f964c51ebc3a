/** @jsxImportSource @kitajs/html */
// The dashboard's income figures: today, yesterday, 7 and 30 days as cards, and where the money
// came from (pay type, account, merchant) today and over 30 days. Everything comes from
// dashboardStats (core/stats/dashboard.ts), the numbers `xpay stats` prints.
import { bigCount, grouped, yuanText } from "../format.ts";
import type { Breakdowns, DashboardStats, Period } from "../../core/stats/dashboard.ts";
import type { IncomeGroup } from "../../core/stats/income.ts";
import { attr } from "../components.tsx";
import type { TextKey, Translate } from "../i18n/index.ts";
import { payTypeName, percent } from "./dashboard-format.ts";

/** Rows per breakdown table; the rest is one `xpay stats` away. */
export const BREAKDOWN_ROWS = 10;

const PERIODS: [keyof DashboardStats["periods"], TextKey][] = [
  ["today", "dashboard.today"],
  ["yesterday", "dashboard.yesterday"],
  ["last7", "dashboard.last7"],
  ["last30", "dashboard.last30"],
];

function PeriodCard(p: { id: string; label: string; period: Period; t: Translate }) {
  const { period, t } = p;
  return (
    <div class="dash-period" id={`period-${p.id}`}>
      <div class="dash-period-label" safe>{p.label}</div>
      <div class="dash-amount">
        <span class="dash-yuan">¥</span>
        <span class="dash-value" safe>{yuanText(period.paidAmount)}</span>
      </div>
      <div class="dash-sub">
        <span class="dash-paid" safe>{t("dashboard.paid_count", { n: bigCount(period.paidCount, t) })}</span>
        <span class="dash-ratio" safe>{t("dashboard.created_ratio", { n: bigCount(period.created, t), ratio: percent(period.ratio) })}</span>
      </div>
    </div>
  );
}

export function PeriodCards(p: { stats: DashboardStats; t: Translate }) {
  return (
    <section id="income-periods">
      <div class="dash-periods">
        {PERIODS.map(([key, label]) => <PeriodCard id={key} label={p.t(label)} period={p.stats.periods[key]} t={p.t} />)}
      </div>
      <p class="hint muted dash-hint" safe>{p.t("dashboard.period_hint", { zone: p.stats.zone })}</p>
    </section>
  );
}

type Kind = keyof Breakdowns;

interface Row {
  key: string;
  label: string;
  today: number;
  last30: IncomeGroup;
}

/** Today's and the 30 days' groups side by side, ordered as the 30 days are (largest income first). */
function rowsOf(stats: DashboardStats, kind: Kind, t: Translate): Row[] {
  const today = new Map(stats.today[kind].map((g) => [g.key, g.paidAmount]));
  return stats.last30[kind].map((g) => ({
    key: g.key,
    label: kind === "payType" ? payTypeName(g.key, t) : g.key === "" ? t("dashboard.no_account") : g.label,
    today: today.get(g.key) ?? 0,
    last30: g,
  }));
}

const TABLES: [Kind, TextKey, TextKey, string][] = [
  ["payType", "dashboard.by_pay_type", "dashboard.col_pay_type", "pay-type"],
  ["merchant", "dashboard.by_merchant", "dashboard.col_merchant", "merchant"],
  ["account", "dashboard.by_account", "dashboard.col_account", "account"], // full width (dashboard.css): its labels are long
];

function BreakdownTable(p: { kind: Kind; title: string; column: string; by: string; rows: Row[]; t: Translate }) {
  const { t } = p;
  const shown = p.rows.slice(0, BREAKDOWN_ROWS);
  return (
    <div class="dash-breakdown" id={`by-${p.by}`}>
      <h3 safe>{p.title}</h3>
      <div class="table-wrap">
        <table class="table">
          <thead>
            <tr>
              <th safe>{p.column}</th>
              <th class="num" safe>{t("dashboard.col_today")}</th>
              <th class="num" safe>{t("dashboard.col_30d")}</th>
              <th class="num" safe>{t("dashboard.col_count_30d")}</th>
              <th class="num" safe>{t("dashboard.col_ratio")}</th>
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colspan="5" class="empty" safe>{t("dashboard.breakdown_empty")}</td>
              </tr>
            ) : (
              shown.map((r) => (
                <tr data-key={attr(r.key)}>
                  <td class="dash-name" safe>{r.label}</td>
                  <td class="num" safe>{yuanText(r.today)}</td>
                  <td class="num" safe>{yuanText(r.last30.paidAmount)}</td>
                  <td class="num" safe>{grouped(r.last30.paidCount)}</td>
                  <td class="num" safe>{percent(r.last30.ratio)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {p.rows.length > BREAKDOWN_ROWS ? (
        <p class="hint muted">
          <span safe>{t("dashboard.breakdown_more", { n: BREAKDOWN_ROWS })}</span> <code safe>{`xpay stats --days 30 --by ${p.by}`}</code>
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

export function BreakdownTables(p: { stats: DashboardStats; t: Translate }) {
  return (
    <section class="card" id="income-breakdown">
      <div class="dash-card-head">
        <h2 safe>{p.t("dashboard.breakdown")}</h2>
        <span class="muted" safe>{p.t("dashboard.breakdown_lead")}</span>
      </div>
      <div class="dash-grid">
        {TABLES.map(([kind, title, column, by]) => <BreakdownTable kind={kind} title={p.t(title)} column={p.t(column)} by={by} rows={rowsOf(p.stats, kind, p.t)} t={p.t} />)}
      </div>
    </section>
  );
}
