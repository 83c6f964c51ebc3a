/** @jsxImportSource @kitajs/html */
// /admin/accounts: every receiving account with what it received today against its daily limit
// (core/accounts-today.ts, the stats figures), its monitoring client's state and who may report
// on it (core/clients/overview.ts accountWatchers: the phones, the merchant's AppSecret, or
// nobody: 无人监控, no report can pay an order there), enable/disable
// in place, a link to the amounts its orders hold (account-slots.tsx), and the routes of the
// add/edit form (account-form.tsx) and the QR preview image.
import { type AccountToday, accountsToday, NEAR_LIMIT } from "../../core/accounts-today.ts";
import { setAccountEnabled } from "../../core/account-actions.ts";
import { accountWatchers, keyedOf } from "../../core/clients/overview.ts";
import type { Watcher } from "../../core/clients/watch.ts";
import type { Gateway } from "../../core/gateway.ts";
import type { KeyedClient } from "../../core/store.ts";
import { yuanText } from "../format.ts";
import { CsrfInput, Notice, PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, page } from "../render.tsx";
import { accountFormRoutes, qrPreview } from "./account-form.tsx";
import { testPayRoutes } from "./account-test-pay.tsx";
import { payTypeLabel } from "./account-input.ts";

/** Who may report payments on the account (core accountWatchers); nobody: 无人监控, no report can pay it. */
function Watchers(p: { ctx: AdminContext; watchers: Watcher[]; pages: Map<number, number> }) {
  const { t } = p.ctx;
  if (p.watchers.length === 0) return <span class="tag tag-danger acc-unwatched" title={t("accounts.unwatched_hint")} safe>{t("accounts.unwatched")}</span>;
  return (
    <ul class="acc-watchers">
      {p.watchers.map((w) => {
        if (w.kind === "merchant") return <li class="small" safe>{t("accounts.merchant_secret")}</li>;
        const k = w as KeyedClient;
        const id = p.pages.get(k.id);
        return <li class="small">{id ? <a href={`/admin/clients/${id}`} safe>{k.name}</a> : <span safe>{k.name}</span>}</li>;
      })}
    </ul>
  );
}

function Monitor(p: { ctx: AdminContext; row: AccountToday; watch: WatchInfo }) {
  const { t } = p.ctx;
  const a = p.row.account;
  const watchers = <Watchers ctx={p.ctx} watchers={p.watch.of.get(a.id) ?? []} pages={p.watch.pages} />;
  if (!a.lastSeenAt) return <div class="stack"><span class="tag" safe>{t("accounts.never")}</span>{watchers}</div>;
  return (
    <div class="stack">
      {p.row.online ? <span class="tag tag-ok" safe>{t("accounts.online")}</span> : <span class="tag tag-warn" safe>{t("accounts.offline")}</span>}
      <span class="small faint"><Time at={a.lastSeenAt} tz={p.ctx.tz} /></span>
      {watchers}
    </div>
  );
}

interface WatchInfo {
  /** Each account's watchers (empty: unwatched). */
  of: Map<number, Watcher[]>;
  /** Keyed client id -> its page's (clients row) id. */
  pages: Map<number, number>;
}

async function watchInfo(gw: Gateway): Promise<WatchInfo> {
  const [all, keyed, rows, settings] = await Promise.all([gw.store.listChannels(), gw.store.listKeyedClients(), gw.store.listClients(), gw.settings()]);
  const pages = new Map<number, number>();
  for (const r of rows) {
    const k = keyedOf(r, keyed);
    if (k) pages.set(k.id, r.id);
  }
  return { of: accountWatchers({ all, keyed }, settings.str("report_merchant_secret") === "1"), pages };
}

function Today(p: { ctx: AdminContext; row: AccountToday }) {
  const { t } = p.ctx;
  const { account: a, paidToday, paidCountToday, dayUsed } = p.row;
  return (
    <div class="stack stack-end">
      <span class="nowrap">
        <strong safe>{yuanText(paidToday)}</strong> <span class="faint">/</span> <span safe>{a.dayAmount > 0 ? yuanText(a.dayAmount) : t("accounts.no_limit")}</span>
      </span>
      {dayUsed !== null ? <meter min="0" max="1" low={String(NEAR_LIMIT * 0.75)} high={String(NEAR_LIMIT)} optimum="0" value={String(Math.min(1, dayUsed))} title={`${Math.round(dayUsed * 100)}%`}></meter> : ""}
      <span class="small faint" safe>{t("accounts.orders_today", { n: paidCountToday })}</span>
      <a class="small" href={`/admin/accounts/${a.id}/slots`} title={t("accounts.slots_hint")} safe>{t("accounts.slots")}</a>
    </div>
  );
}

function Range(p: { ctx: AdminContext; min: number; max: number }) {
  if (!p.min && !p.max) return <span class="faint" safe>{p.ctx.t("accounts.no_limit")}</span>;
  const text = !p.max ? `≥ ${yuanText(p.min)}` : !p.min ? `≤ ${yuanText(p.max)}` : `${yuanText(p.min)} – ${yuanText(p.max)}`;
  return <span class="nowrap" safe>{text}</span>;
}

function AccountsTable(p: { ctx: AdminContext; rows: AccountToday[]; watch: WatchInfo }) {
  const { ctx } = p;
  const t = ctx.t;
  return (
    <div class="table-wrap cards">
      <table class="table" id="accounts-table">
        <thead>
          <tr>
            <th class="num" safe>{t("accounts.col_id")}</th>
            <th safe>{t("accounts.col_name")}</th>
            <th class="num" safe>{t("accounts.col_today")}</th>
            <th safe>{t("accounts.col_monitor")}</th>
            <th safe>{t("accounts.col_status")}</th>
            <th safe>{t("accounts.col_type")}</th>
            <th safe>{t("accounts.col_owner")}</th>
            <th class="num" safe>{t("accounts.col_range")}</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {p.rows.length === 0 ? (
            <tr>
              <td colspan="9" class="empty" safe>{t("accounts.empty")}</td>
            </tr>
          ) : (
            p.rows.map((row) => {
              const a = row.account;
              const near = row.dayUsed !== null && row.dayUsed >= NEAR_LIMIT;
              return (
                <tr data-account={String(a.id)} class={!a.enabled ? "row-off" : near ? "row-warn" : undefined}>
                  <td class="num mono c-hide" safe>{String(a.id)}</td>
                  <td class="wrap c-title">
                    <a href={`/admin/accounts/${a.id}`} safe>{a.name}</a>
                    <div class="small faint mono" safe>{a.code}</div>
                  </td>
                  <td class="num c-key" data-label={t("accounts.col_today")} data-today={String(row.paidToday)}><Today ctx={ctx} row={row} /></td>
                  <td class="nowrap" data-label={t("accounts.col_monitor")}><Monitor ctx={ctx} row={row} watch={p.watch} /></td>
                  <td class="c-badge">{a.enabled ? <span class="tag tag-ok" safe>{t("accounts.enabled")}</span> : <span class="tag tag-danger" safe>{t("accounts.disabled")}</span>}</td>
                  <td class="nowrap" data-label={t("accounts.col_type")} safe>{payTypeLabel(t, a.payType)}</td>
                  <td class="nowrap" data-label={t("accounts.col_owner")} safe>{a.pid === 0 ? t("accounts.shared") : t("accounts.owner_pid", { pid: a.pid })}</td>
                  <td class="num" data-label={t("accounts.col_range")}><Range ctx={ctx} min={a.minAmount} max={a.maxAmount} /></td>
                  <td class="nowrap c-actions">
                    <div class="actions">
                      <a class="btn btn-small" href={`/admin/accounts/${a.id}`} safe>{t("accounts.edit")}</a>
                      {a.enabled ? <a class="btn btn-small" href={`/admin/accounts/${a.id}/test-pay`} data-test-pay={String(a.id)} title={t("testpay.button_hint")} safe>{t("testpay.button")}</a> : ""}
                      <form method="post" action={`/admin/accounts/${a.id}/${a.enabled ? "disable" : "enable"}`} data-confirm={a.enabled ? t("accounts.disable_confirm") : undefined}>
                        <CsrfInput csrf={ctx.csrf} />
                        <button class={a.enabled ? "btn btn-small btn-danger" : "btn btn-small"} type="submit" safe>{t(a.enabled ? "accounts.disable" : "accounts.enable")}</button>
                      </form>
                    </div>
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}

const DONE = { added: "accounts.added", saved: "accounts.saved", removed: "accounts.removed", enabled: "accounts.enabled_done", disabled: "accounts.disabled_done" } as const;

async function listPage(ctx: AdminContext): Promise<Response> {
  const today = await accountsToday(ctx.gw);
  const t = ctx.t;
  const done = ctx.query.get("done") as keyof typeof DONE | null;
  const id = /^\d{1,9}$/.test(ctx.query.get("id") ?? "") ? ctx.query.get("id")! : "";
  return page(ctx, {
    title: t("accounts.title"),
    styles: ["manage.css"],
    children: (
      <section>
        <PageHead title={t("accounts.title")} lead={t("accounts.intro", { n: today.heartbeatTimeout })}>
          <a class="btn btn-primary" href="/admin/accounts/new" id="account-add" safe>{t("accounts.add")}</a>
        </PageHead>
        {done && done in DONE && id ? <Notice kind="ok" text={t(DONE[done], { id })} id="accounts-notice" /> : ""}
        <AccountsTable ctx={ctx} rows={today.rows} watch={await watchInfo(ctx.gw)} />
      </section>
    ),
  });
}

function toggle(enabled: boolean) {
  return async (ctx: AdminContext): Promise<Response> => {
    const id = /^\d{1,9}$/.test(ctx.params.id ?? "") ? Number(ctx.params.id) : 0;
    const a = await setAccountEnabled(ctx.gw, ctx.actor, id, enabled);
    if (!a) return errorAnswer(ctx, 404, ctx.t("accounts.not_found"));
    return seeOther(`/admin/accounts?done=${enabled ? "enabled" : "disabled"}&id=${a.id}`);
  };
}

export const accountsPage: AdminPage = {
  nav: { path: "/admin/accounts", label: "nav.accounts", order: 50 },
  routes: [
    { method: "GET", path: "/admin/accounts", handle: listPage },
    { method: "GET", path: "/admin/accounts/qr", handle: qrPreview },
    ...accountFormRoutes,
    ...testPayRoutes,
    { method: "POST", path: "/admin/accounts/:id/enable", handle: toggle(true) },
    { method: "POST", path: "/admin/accounts/:id/disable", handle: toggle(false) },
  ],
};
