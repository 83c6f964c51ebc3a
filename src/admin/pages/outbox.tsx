/** @jsxImportSource @kitajs/html */
// /admin/notifications: the merchant notification outbox on the functions `xpay notify` uses: the
// list (store.listNotifications, newest first, filtered by status, merchant and creation dates:
// outbox-filter.tsx) and resend of one (replayNotificationAs, audited by the core as
// `notification.replay`), back to the same filter.
import { outboxQueryString } from "../../core/browse/outbox-query.ts";
import { replayNotificationAs } from "../../core/order-actions.ts";
import { attr, CsrfInput, Notice, PageHead } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import type { TextKey } from "../i18n/index.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, page } from "../render.tsx";
import { TimeMs } from "./order-bits.tsx";
import { OutboxFilterForm, outboxFilter } from "./outbox-filter.tsx";

const LIMIT = 100;
const TAG: Record<string, string> = { pending: "tag-accent", failed: "tag-danger", delivered: "tag-ok" };

async function listPage(ctx: AdminContext): Promise<Response> {
  const t = ctx.t;
  const { merchants, parsed, errors, bad } = await outboxFilter(ctx);
  const rows = bad ? [] : await ctx.gw.store.listNotifications({ ...parsed.filter, limit: LIMIT });
  const resent = ctx.query.get("resent") ?? "";
  const qs = outboxQueryString(parsed.values);
  const back = qs ? `?${qs}` : "";
  return page(ctx, {
    title: t("outbox.title"),
    status: bad ? 422 : 200,
    styles: ["manage.css"],
    children: (
      <section>
        <PageHead title={t("outbox.title")} lead={t("outbox.intro")} />
        {resent ? <Notice kind="ok" id="outbox-notice" text={t("outbox.resent", { trade_no: resent })} /> : ""}
        <OutboxFilterForm values={parsed.values} errors={errors} merchants={merchants} t={t} tz={ctx.tz} now={ctx.gw.clock.now()} />
        <p class="small faint" safe>{`${t("filters.zone", { zone: ctx.tz })} ${t("outbox.shown", { n: LIMIT })}`}</p>
        {bad ? <Notice kind="error" text={t("outbox.fix_filter")} id="filter-error" /> : ""}
        <div class="table-wrap cards">
          <table class="table" id="outbox-table">
            <thead><tr><th safe>{t("outbox.col_order")}</th><th safe>{t("outbox.col_status")}</th><th class="num" safe>{t("outbox.col_attempts")}</th><th safe>{t("outbox.col_next")}</th><th safe>{t("outbox.col_created")}</th><th safe>{t("outbox.col_url")}</th><th></th></tr></thead>
            <tbody>
              {rows.length === 0 ? <tr><td colspan="7" class="empty" safe>{t("outbox.none")}</td></tr> : rows.map((n) => (
                <tr data-trade-no={attr(n.tradeNo)}>
                  <td class="mono nowrap c-title"><a href={`/admin/orders/${encodeURIComponent(n.tradeNo)}`} safe>{n.tradeNo}</a></td>
                  <td class="c-badge"><span class={`tag ${TAG[n.status] ?? ""}`} safe>{t(`outbox.status_${n.status}` as TextKey)}</span></td>
                  <td class="num" data-label={t("outbox.col_attempts")} safe>{String(n.attempts)}</td>
                  <td class="nowrap" data-label={t("outbox.col_next")}>{n.status === "pending" ? <TimeMs ms={n.nextAttemptAt} tz={ctx.tz} /> : <span class="faint">—</span>}</td>
                  <td class="nowrap" data-label={t("outbox.col_created")}><TimeMs ms={n.createdAt} tz={ctx.tz} /></td>
                  <td class="wrap small mono c-full" data-label={t("outbox.col_url")} safe>{`${n.method} ${n.url}`}</td>
                  <td class="c-actions">
                    <form method="post" action={`/admin/notifications/${encodeURIComponent(n.tradeNo)}/resend${back}`}>
                      <CsrfInput csrf={ctx.csrf} />
                      <button class="btn btn-small" type="submit" safe>{t("outbox.resend")}</button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    ),
  });
}

async function resend(ctx: AdminContext): Promise<Response> {
  const tradeNo = ctx.params.trade_no ?? "";
  const r = await replayNotificationAs(ctx.gw, ctx.actor, tradeNo);
  if (!r.ok) return errorAnswer(ctx, 404, ctx.t("outbox.not_found"));
  // Back to the list as it was filtered (a filter value the page would refuse is dropped here).
  const { parsed, bad } = await outboxFilter(ctx);
  const qs = bad ? "" : outboxQueryString(parsed.values);
  return seeOther(`/admin/notifications?${qs ? `${qs}&` : ""}resent=${encodeURIComponent(tradeNo)}`);
}

export const outboxPage: AdminPage = {
  nav: { path: "/admin/notifications", label: "outbox.nav", order: 35 },
  routes: [
    { method: "GET", path: "/admin/notifications", handle: listPage },
    { method: "POST", path: "/admin/notifications/:trade_no/resend", handle: resend },
  ],
};
