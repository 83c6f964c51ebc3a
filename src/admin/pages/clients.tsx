/** @jsxImportSource @kitajs/html */
// GET /admin/clients: the monitoring clients (core/clients/overview.ts: kind, merchant, the
// accounts each speaks for, last heard with its age, online by heartbeat_timeout), a link to the
// setup helper, and every receiving account with the payable amounts its orders hold now, each
// linking to its reserved-amounts page (/admin/accounts/:id/slots).
import { type ClientRow, clientsOverview } from "../../core/clients/overview.ts";
import { accountsHeld } from "../../core/slots/reserved.ts";
import type { ChannelAccount } from "../../core/types.ts";
import { Notice, PageHead } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import type { Translate } from "../i18n/index.ts";
import { page } from "../render.tsx";
import { Ago, clientKindName, OnlineTag, payTypeName } from "./client-bits.tsx";

/**
 * What a client watches: each account (id, name, pay type) linked to its reserved amounts, after
 * "unbound" for a keyed client bound to none (it watches every account in its scope no client is
 * bound to) or the AppSecret phone's own unbound accounts.
 */
export function AccountLinks(p: { row: ClientRow; t: Translate }) {
  const { row, t } = p;
  const n = row.accounts.length;
  const scope = !row.everyAccount ? "" : row.keyed ? (
    <span class="tag cl-unbound" title={t("clients.unbound_hint", { n })} safe>{t("clients.unbound")}</span>
  ) : (
    <span class="muted" safe>{t("clients.every_account", { n })}</span>
  );
  const links = row.accounts.map((a) => <a href={`/admin/accounts/${a.id}/slots`} class="cl-account" safe>{`#${a.id} ${a.name} · ${payTypeName(t, a.payType)}`}</a>);
  return (
    <div class="cl-accounts">
      {scope}
      {n === 0 ? <span class="faint" safe>{t("clients.no_account")}</span> : links}
    </div>
  );
}

/** The merchant column: the third-party watcher serves every merchant, a keyed client of pid 0 the operator. */
export function ownerText(row: ClientRow, t: Translate): string {
  const c = row.client;
  if (c.kind === "third-account") return t("clients.third_party");
  if (c.pid === 0 && row.keyed) return t("keyed.operator");
  return `${c.pid} ${row.merchantName ?? ""}`.trim();
}

function ClientsTable(p: { rows: ClientRow[]; now: number; ctx: AdminContext }) {
  const { t, tz } = p.ctx;
  return (
    <div class="table-wrap cards">
      <table class="table" id="clients-table">
        <thead>
          <tr>
            <th safe>{t("clients.col_name")}</th>
            <th safe>{t("clients.col_status")}</th>
            <th safe>{t("clients.col_last_seen")}</th>
            <th safe>{t("clients.col_kind")}</th>
            <th safe>{t("clients.col_merchant")}</th>
            <th safe>{t("clients.col_accounts")}</th>
          </tr>
        </thead>
        <tbody>
          {p.rows.map((r) => (
            <tr data-client={String(r.client.id)}>
              <td class="wrap c-title"><a href={`/admin/clients/${r.client.id}`} safe>{r.client.name}</a></td>
              <td class="nowrap c-badge"><OnlineTag online={r.online} never={r.age === null} t={t} /></td>
              <td class="nowrap" data-label={t("clients.col_last_seen")}><Ago at={r.client.lastSeenAt} now={p.now} tz={tz} t={t} /></td>
              <td class="nowrap" data-label={t("clients.col_kind")} safe>{clientKindName(t, r.client.kind)}</td>
              <td class="wrap" data-label={t("clients.col_merchant")} safe>{ownerText(r, t)}</td>
              <td class="wrap c-full" data-label={t("clients.col_accounts")}><AccountLinks row={r} t={t} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SlotsCard(p: { held: { account: ChannelAccount; held: number; more: boolean }[]; window: number; t: Translate }) {
  const { t } = p;
  return (
    <section class="card" id="slots-card">
      <h2 safe>{t("clients.slots_heading")}</h2>
      <p class="muted" safe>{t("clients.slots_lead", { w: p.window })}</p>
      {p.held.length === 0 ? (
        <p class="empty" safe>{t("clients.no_accounts")}</p>
      ) : (
        <ul class="cl-slot-list">
          {p.held.map((h) => (
            <li data-account={String(h.account.id)}>
              <a href={`/admin/accounts/${h.account.id}/slots`} safe>{`#${h.account.id} ${h.account.name}`}</a>
              <span class="muted" safe>{payTypeName(t, h.account.payType)}</span>
              <span class={h.held > 0 ? "tag tag-warn" : "tag"} safe>{t("clients.slots_held", { n: `${h.held}${h.more ? "+" : ""}` })}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

async function listClients(ctx: AdminContext): Promise<Response> {
  const { t } = ctx;
  const o = await clientsOverview(ctx.gw);
  const held = await accountsHeld(ctx.gw);
  const window = (await ctx.gw.settings()).int("match_window");
  const on = o.rows.filter((r) => r.online).length;
  return page(ctx, {
    title: t("clients.title"),
    styles: ["clients.css"],
    children: (
      <section>
        <PageHead title={t("clients.title")} lead={t("clients.intro", { n: o.timeout })}>
          <a class="btn btn-primary" href="/admin/clients/setup" id="setup-link" safe>{t("clients.setup_link")}</a>
        </PageHead>
        {ctx.query.get("done") === "removed" ? <Notice kind="ok" id="clients-notice" text={t("keyed.removed")} /> : ""}
        <div class="card">
          {o.rows.length === 0 ? (
            <p class="notice notice-info" id="clients-none" safe>{t("clients.none")}</p>
          ) : (
            <div>
              <p class="muted" id="clients-summary" safe>{t("clients.summary", { on, off: o.rows.length - on })}</p>
              <ClientsTable rows={o.rows} now={o.now} ctx={ctx} />
            </div>
          )}
        </div>
        <SlotsCard held={held} window={window} t={t} />
      </section>
    ),
  });
}

export const clientsPage: AdminPage = {
  nav: { path: "/admin/clients", label: "nav.clients", order: 60 },
  routes: [{ method: "GET", path: "/admin/clients", handle: listClients }],
};
