/** @jsxImportSource @kitajs/html */
// GET /admin/clients/:id: one monitoring client. What it is (merchant, accounts, last heard), its
// latest payment reports with their raw content and how each was read (refreshed by htmx every
// 5 s for 10 minutes, so the operator can pay a cent and watch it arrive), and its device history
// (issue 22): online stretches and silences over 24 h / 7 d / 30 d, online today, report latency,
// and the messages no rule could read. A keyed client (a phone with a secret of its own) also gets
// its binding form and a remove button (client-watch.tsx). Data: core/clients/overview.ts and detail.ts.
import { type ClientDetail, clientDetail, HISTORY_DAYS, reportQuery } from "../../core/clients/detail.ts";
import { findClient } from "../../core/clients/overview.ts";
import type { StoredReport } from "../../core/store.ts";
import { PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import type { TextKey } from "../i18n/index.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, fragment, page } from "../render.tsx";
import { AccountLinks, ownerText } from "./clients.tsx";
import { Ago, clientKindName, duration, OnlineTag, ReportsTable } from "./client-bits.tsx";
import { GapsTable, LatencyCard, Timeline, UnreadCard } from "./client-history.tsx";
import { bindAction, choicesFor, removeAction, WatchCard, type WatchState } from "./client-watch.tsx";

/** Seconds a page keeps polling: a watching tab must not keep a session alive forever. */
export const WATCH_SECONDS = 600;
export const POLL_SECONDS = 5;

const idOf = (v: string | undefined) => (v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : 0);
const intParam = (v: string | null) => (v !== null && /^\d{1,15}$/.test(v) ? Number(v) : null);

/**
 * The live list: polls itself every POLL_SECONDS while the watch (started at `from`) is younger
 * than WATCH_SECONDS; rows newer than `since` (the newest id when the page was opened) are marked.
 */
export function LiveReports(p: { ctx: AdminContext; id: string; url: string; reports: StoredReport[]; since: number; from: number; now: number; empty: string; client?: boolean }) {
  const { t } = p.ctx;
  const watching = p.now - p.from < WATCH_SECONDS;
  const next = `${p.url}${p.url.includes("?") ? "&" : "?"}since=${p.since}&from=${p.from}`;
  const again = `${p.url}${p.url.includes("?") ? "&" : "?"}since=${p.since}&from=${p.now}`;
  return (
    <div id={p.id} hx-get={watching ? next : undefined} hx-trigger={watching ? `every ${POLL_SECONDS}s` : undefined} hx-swap="outerHTML">
      <p class="cl-watch muted">
        {watching ? (
          <span><span class="cl-pulse" aria-hidden="true"></span><span safe>{t("client.watching")}</span></span>
        ) : (
          <a href="#" class="btn btn-small" hx-get={again} hx-target={`#${p.id}`} hx-swap="outerHTML" safe>{t("client.watch_again")}</a>
        )}
      </p>
      {p.reports.length === 0 ? <p class="empty" safe>{p.empty}</p> : <ReportsTable reports={p.reports} tz={p.ctx.tz} t={t} newAfter={p.since} id={`${p.id}-table`} client={p.client} />}
    </div>
  );
}

function History(p: { ctx: AdminContext; id: number; days: number; d: ClientDetail }) {
  const { t, tz } = p.ctx;
  const { history: h, today } = p.d;
  return (
    <section class="card" id="history">
      <div class="page-head">
        <h2 safe>{t("history.heading")}</h2>
        <nav class="cl-ranges" aria-label={t("history.heading")}>
          {HISTORY_DAYS.map((d) => (
            <a class="btn btn-small" href={`/admin/clients/${p.id}?days=${d}`} aria-current={d === p.days ? "true" : undefined} safe>{t(`history.range_${d}` as TextKey)}</a>
          ))}
        </nav>
      </div>
      <p class="muted" safe>{t("history.lead", { t: h.timeout })}</p>
      <dl class="cl-figures">
        <div><dt safe>{t("history.today")}</dt><dd id="online-today" safe>{duration(today.onlineSeconds, t)}</dd></div>
        <div><dt safe>{t(`history.range_${p.days}` as TextKey)}</dt><dd id="range-figures" safe>{`${t("history.beats", { n: h.beats })} · ${t("history.gaps", { n: h.gaps.length })}`}</dd></div>
      </dl>
      {h.spans.length === 0 && h.gaps.length === 0 ? (
        <p class="empty" id="history-none" safe>{t("history.no_record")}</p>
      ) : (
        <div>
          <Timeline h={h} tz={tz} t={t} />
          <p class="cl-legend">
            <span><i class="on"></i><span safe>{t("clients.online")}</span></span>
            <span><i class="off"></i><span safe>{t("clients.offline")}</span></span>
            <span><i class="none"></i><span safe>{t("history.no_record")}</span></span>
          </p>
        </div>
      )}
      <h3 safe>{t("history.gap_heading")}</h3>
      <GapsTable h={h} tz={tz} t={t} />
    </section>
  );
}

const showClient = (ctx: AdminContext) => renderClient(ctx);

async function renderClient(ctx: AdminContext, watch?: WatchState): Promise<Response> {
  const { t, tz } = ctx;
  const row = await findClient(ctx.gw, idOf(ctx.params.id));
  if (!row) return errorAnswer(ctx, 404, t("client.not_found"));
  const c = row.client;
  const asked = intParam(ctx.query.get("days"));
  const days = HISTORY_DAYS.find((d) => d === asked) ?? 1;
  const d = await clientDetail(ctx.gw, c, { days, timeout: row.timeout, tz });
  const since = d.reports[0]?.id ?? 0;
  const setup = c.kind === "third-account" ? "/admin/clients/setup" : `/admin/clients/setup?pid=${c.pid}`;
  const k = row.keyed;
  const safeWatch = k ? <WatchCard ctx={ctx} monitorId={c.id} c={k} watching={row.accounts.length} choices={await choicesFor(ctx, k)} state={watch} saved={ctx.query.get("done") === "bound"} /> : "";
  return page(ctx, {
    title: t("client.title", { name: c.name }),
    styles: ["clients.css"],
    status: watch ? 422 : 200,
    children: (
      <section>
        <p><a href="/admin/clients" safe>{t("client.back")}</a></p>
        <PageHead title={t("client.title", { name: c.name })}>
          <span class="cl-head-tags">
            <span class="tag" safe>{clientKindName(t, c.kind)}</span> <OnlineTag online={row.online} never={row.age === null} t={t} />
          </span>
        </PageHead>
        <div class="card">
          <dl class="cl-facts" id="client-facts">
            <div><dt safe>{t("client.merchant")}</dt><dd safe>{ownerText(row, t)}</dd></div>
            <div><dt safe>{t("client.accounts")}</dt><dd><AccountLinks row={row} t={t} /></dd></div>
            <div><dt safe>{t("client.last_seen")}</dt><dd><Ago at={c.lastSeenAt} now={row.now} tz={tz} t={t} /> {c.lastSeenAt ? <span class="muted">(<Time at={c.lastSeenAt} tz={tz} />)</span> : ""}</dd></div>
            {c.extData ? <div><dt safe>{t("client.ext_data")}</dt><dd class="mono" safe>{c.extData}</dd></div> : ""}
          </dl>
          <p><a class="btn btn-small" href={setup} id="client-setup" safe>{t("client.setup")}</a></p>
        </div>
        {safeWatch}
        <section class="card" id="reports">
          <h2 safe>{t("client.reports")}</h2>
          <p class="muted" safe>{t("client.reports_lead")}</p>
          <LiveReports ctx={ctx} id="live" url={`/admin/clients/${c.id}/reports`} reports={d.reports} since={since} from={row.now} now={row.now} empty={t("client.reports_none")} client />
        </section>
        <History ctx={ctx} id={c.id} days={days} d={d} />
        <LatencyCard latency={d.latency} tz={tz} t={t} />
        {c.kind === "phone" ? <UnreadCard unread={d.unread} tz={tz} t={t} /> : ""}
      </section>
    ),
  });
}

/** The htmx poll of the live list (a fragment; without htmx the whole client page). */
async function pollReports(ctx: AdminContext): Promise<Response> {
  const id = idOf(ctx.params.id);
  if (!ctx.htmx) return seeOther(`/admin/clients/${id}`);
  const c = await ctx.gw.store.devices.getClient(id);
  if (!c) return errorAnswer(ctx, 404, ctx.t("client.not_found"));
  const now = ctx.gw.clock.now();
  const reports = await ctx.gw.store.devices.clientReports(reportQuery(c));
  const since = intParam(ctx.query.get("since")) ?? 0;
  const from = Math.min(intParam(ctx.query.get("from")) ?? now, now);
  return fragment(<LiveReports ctx={ctx} id="live" url={`/admin/clients/${id}/reports`} reports={reports} since={since} from={from} now={now} empty={ctx.t("client.reports_none")} client />);
}

export const clientPage: AdminPage = {
  routes: [
    { method: "GET", path: "/admin/clients/:id", handle: showClient },
    { method: "GET", path: "/admin/clients/:id/reports", handle: pollReports },
    { method: "POST", path: "/admin/clients/:id/bind", handle: bindAction(renderClient) },
    { method: "POST", path: "/admin/clients/:id/remove", handle: removeAction },
  ],
};
