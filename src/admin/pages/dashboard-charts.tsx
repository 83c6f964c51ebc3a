/** @jsxImportSource @kitajs/html */
// Income per hour today and per day over 30 days: uPlot draws each from the JSON in its data-chart
// attribute (assets/dashboard.js; the CSP allows no inline script). The labels are the stats
// core's local hours and days in the operator's zone, so the browser's own zone never shifts a
// bar. Under each chart the same figures as a table: the page says it without script too.
import { grouped, yuanText } from "../format.ts";
import type { IncomeGroup } from "../../core/stats/income.ts";
import { attr } from "../components.tsx";
import type { Translate } from "../i18n/index.ts";
import { percent } from "./dashboard-format.ts";

/** What dashboard.js reads. Amounts in yuan (numbers), x as positions 0..n-1. */
export interface ChartData {
  /** Axis labels: "14:00", "11-23". */
  labels: string[];
  /** The whole label for the legend: "2026-11-23 14:00". */
  full: string[];
  yuan: number[];
  paid: number[];
  series: string;
  x: string;
  /** The units of large axis numbers in the page's language ("万", "亿"); empty in English,
   *  where the axis says "20k" and "2M" (format.ts decides the same for the cards). */
  wan: string;
  yi: string;
}

export function chartData(groups: IncomeGroup[], unit: "hour" | "day", t: Translate): ChartData {
  return {
    labels: groups.map((g) => (unit === "hour" ? g.key.slice(11, 16) : g.key.slice(5, 10))),
    full: groups.map((g) => g.key),
    yuan: groups.map((g) => g.paidAmount / 100),
    paid: groups.map((g) => g.paidCount),
    series: t("dashboard.series_amount"),
    x: t(unit === "hour" ? "dashboard.col_hour" : "dashboard.col_day"),
    wan: t("fmt.wan"),
    yi: t("fmt.yi"),
  };
}

function DataTable(p: { groups: IncomeGroup[]; unit: "hour" | "day"; t: Translate }) {
  const { t } = p;
  return (
    <details class="dash-data">
      <summary safe>{t("dashboard.chart_table")}</summary>
      <div class="table-wrap">
        <table class="table">
          <thead>
            <tr>
              <th safe>{t(p.unit === "hour" ? "dashboard.col_hour" : "dashboard.col_day")}</th>
              <th class="num" safe>{t("dashboard.col_amount")}</th>
              <th class="num" safe>{t("dashboard.col_paid")}</th>
              <th class="num" safe>{t("dashboard.col_created")}</th>
              <th class="num" safe>{t("dashboard.col_ratio")}</th>
            </tr>
          </thead>
          <tbody>
            {[...p.groups].reverse().map((g) => (
              <tr data-key={attr(g.key)}>
                <td class="nowrap" safe>{g.key}</td>
                <td class="num" safe>{yuanText(g.paidAmount)}</td>
                <td class="num" safe>{grouped(g.paidCount)}</td>
                <td class="num" safe>{grouped(g.created)}</td>
                <td class="num" safe>{percent(g.ratio)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function Chart(p: { id: string; title: string; empty: string; groups: IncomeGroup[]; unit: "hour" | "day"; t: Translate }) {
  const total = p.groups.reduce((s, g) => s + g.paidAmount, 0);
  return (
    <div class="dash-chart-box" id={p.id}>
      <div class="dash-chart-head">
        <h2 safe>{p.title}</h2>
        <span class="dash-chart-total" safe>{`¥${yuanText(total)}`}</span>
      </div>
      {total === 0 ? <p class="dash-empty muted" safe>{p.empty}</p> : ""}
      <div class="dash-chart" data-chart={attr(JSON.stringify(chartData(p.groups, p.unit, p.t)))}></div>
      <DataTable groups={p.groups} unit={p.unit} t={p.t} />
    </div>
  );
}

export function IncomeCharts(p: { hours: IncomeGroup[]; days: IncomeGroup[]; t: Translate }) {
  const { t } = p;
  return (
    <section class="card" id="income-charts">
      <div class="dash-grid">
        <Chart id="chart-hours" title={t("dashboard.chart_hours")} empty={t("dashboard.chart_empty_hours")} groups={p.hours} unit="hour" t={t} />
        <Chart id="chart-days" title={t("dashboard.chart_days")} empty={t("dashboard.chart_empty_days")} groups={p.days} unit="day" t={t} />
      </div>
    </section>
  );
}
