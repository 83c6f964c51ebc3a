/** @jsxImportSource @kitajs/html */
// GET /admin: the dashboard. Income today, yesterday, 7 and 30 days with the charts and where it
// came from (core/stats dashboardStats, the numbers of `xpay stats`), what needs attention
// (core/browse/attention.ts, with a chip for clients offline), the monitoring clients and the
// accounts near their daily limit (near the top: a phone offline is what costs money soonest),
// and on a new gateway the first steps still to do (core/admin/first-steps.ts).
// The handler reads; the pieces in dashboard-*.tsx only render what they are given.
import { firstSteps } from "../../core/admin/first-steps.ts";
import { liveSessions } from "../../core/admin/sessions.ts";
import { attentionList } from "../../core/browse/attention.ts";
import { clientStates } from "../../core/monitor-clients.ts";
import { dashboardStats } from "../../core/stats/dashboard.ts";
import { accountsNearDayLimit } from "../../core/stats/day-limits.ts";
import { PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { page } from "../render.tsx";
import { AttentionList, AttentionSummary } from "./dashboard-attention.tsx";
import { IncomeCharts } from "./dashboard-charts.tsx";
import { FirstStepsCard } from "./dashboard-first-steps.tsx";
import { BreakdownTables, PeriodCards } from "./dashboard-income.tsx";
import { ClientsCard, LimitsCard } from "./dashboard-monitor.tsx";

async function dashboard(ctx: AdminContext): Promise<Response> {
  const { gw, t } = ctx;
  const now = gw.clock.now();
  // One clock reading for every part, so the figures agree with each other.
  const stats = await dashboardStats(gw, { now });
  const attention = await attentionList(gw, { now });
  const clients = await clientStates(gw, now);
  const nearLimit = await accountsNearDayLimit(gw);
  const sessions = await liveSessions(gw, ctx.operator.id);
  const steps = await firstSteps(gw, now);
  return page(ctx, {
    title: t("dashboard.title"),
    scripts: ["uplot", "dashboard.js"],
    styles: ["uplot.css", "dashboard.css"],
    children: (
      <section class="dash">
        <PageHead title={t("dashboard.welcome", { name: ctx.operator.name })}>
          <a class="btn btn-small" href="/admin" id="dash-refresh" safe>{t("dashboard.refresh")}</a>
        </PageHead>
        <p class="lead dash-login" id="welcome">
          <span safe>{t("dashboard.this_login")}</span> <Time at={ctx.session.createdAt} tz={ctx.tz} />
          {" · "}
          <span safe>{t("dashboard.from_ip", { ip: ctx.session.ip || "-" })}</span>
          {" · "}
          <a href="/admin/sessions" safe>{t("dashboard.sessions_link", { n: sessions.length })}</a>
        </p>
        <AttentionSummary a={attention} offline={clients.clients.filter((c) => !c.online)} t={t} />
        <FirstStepsCard steps={steps} t={t} />
        <PeriodCards stats={stats} t={t} />
        <div class="dash-grid">
          <ClientsCard clients={clients.clients} heartbeatTimeout={clients.heartbeatTimeout} tz={ctx.tz} t={t} />
          <LimitsCard accounts={nearLimit} t={t} />
        </div>
        <IncomeCharts hours={stats.hoursToday} days={stats.days30} t={t} />
        <AttentionList a={attention} tz={ctx.tz} t={t} />
        <BreakdownTables stats={stats} t={t} />
      </section>
    ),
  });
}

export const dashboardPage: AdminPage = {
  nav: { path: "/admin", label: "nav.dashboard", order: 10 },
  routes: [
    { method: "GET", path: "/admin", handle: dashboard },
    { method: "GET", path: "/admin/", handle: dashboard },
  ],
};
