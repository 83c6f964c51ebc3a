/** @jsxImportSource @kitajs/html */
// The dashboard's watch on the receiving side: monitoring clients online or offline with the age
// of their last heartbeat (core/monitor-clients.ts, the rule `xpay client list` uses), and the
// accounts that have received most of their daily limit today (core/stats/day-limits.ts).
import { yuanText } from "../format.ts";
import type { ClientState } from "../../core/monitor-clients.ts";
import { type AccountToday, NEAR_LIMIT } from "../../core/accounts-today.ts";
import { formatLocal } from "../../core/time.ts";
import type { Translate } from "../i18n/index.ts";
import { ago, clientKind, payTypeName } from "./dashboard-format.ts";

/** Offline first (they need the operator), then the longest silent. */
function order(clients: ClientState[]): ClientState[] {
  const silence = (c: ClientState) => c.silentFor ?? Number.MAX_SAFE_INTEGER;
  return [...clients].sort((a, b) => Number(a.online) - Number(b.online) || silence(b) - silence(a) || a.id - b.id);
}

export function ClientsCard(p: { clients: ClientState[]; heartbeatTimeout: number; tz: string; t: Translate }) {
  const { t } = p;
  const on = p.clients.filter((c) => c.online).length;
  return (
    <section class="card" id="clients">
      <div class="dash-card-head">
        <h2 safe>{t("dashboard.clients")}</h2>
        {p.clients.length ? <span class="muted" safe>{t("dashboard.clients_summary", { on, off: p.clients.length - on })}</span> : ""}
      </div>
      <p class="hint muted" safe>{t("dashboard.clients_lead", { s: p.heartbeatTimeout })}</p>
      {p.clients.length === 0 ? (
        <p class="notice notice-warn" id="clients-none" safe>{t("dashboard.clients_none")}</p>
      ) : (
        <div class="table-wrap">
          <table class="table" id="clients-table">
            <thead>
              <tr>
                <th safe>{t("dashboard.col_client")}</th>
                <th class="dash-narrow-hide dash-kind" safe>{t("dashboard.col_kind")}</th>
                <th class="dash-narrow-hide" safe>{t("dashboard.col_merchant")}</th>
                <th safe>{t("dashboard.col_status")}</th>
                <th safe>{t("dashboard.col_last_seen")}</th>
              </tr>
            </thead>
            <tbody>
              {order(p.clients).map((c) => (
                <tr data-client={String(c.id)}>
                  <td class="dash-name"><a href={`/admin/clients/${c.id}`} safe>{c.name}</a></td>
                  <td class="nowrap dash-narrow-hide dash-kind" safe>{clientKind(c.kind, t)}</td>
                  <td class="dash-narrow-hide">{c.pid ? String(c.pid) : "—"}</td>
                  <td>
                    {c.online ? <span class="tag tag-ok" safe>{t("dashboard.online")}</span> : <span class="tag tag-danger" safe>{t("dashboard.offline")}</span>}
                  </td>
                  <td class="nowrap">
                    {c.lastSeenAt ? <time class="dash-ago" title={formatLocal(c.lastSeenAt * 1000, p.tz)} safe>{ago(c.silentFor, t)}</time> : <span class="faint" safe>{ago(null, t)}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function LimitsCard(p: { accounts: AccountToday[]; t: Translate }) {
  const { t } = p;
  return (
    <section class="card" id="day-limits">
      <h2 safe>{t("dashboard.limits")}</h2>
      <p class="hint muted" safe>{t("dashboard.limits_lead", { p: Math.round(NEAR_LIMIT * 100) })}</p>
      {p.accounts.length === 0 ? (
        <p class="notice notice-ok" id="limits-none" safe>{t("dashboard.limits_none")}</p>
      ) : (
        <div class="table-wrap">
          <table class="table" id="limits-table">
            <thead>
              <tr>
                <th safe>{t("dashboard.col_account")}</th>
                <th class="num" safe>{t("dashboard.col_paid_today")}</th>
                <th class="num" safe>{t("dashboard.col_limit")}</th>
                <th class="num" safe>{t("dashboard.col_share")}</th>
              </tr>
            </thead>
            <tbody>
              {p.accounts.map((a) => (
                <tr data-account={String(a.account.id)}>
                  <td class="wrap" safe>{`#${a.account.id} ${a.account.name} · ${payTypeName(a.account.payType, t)}`}</td>
                  <td class="num" safe>{yuanText(a.paidToday)}</td>
                  <td class="num" safe>{yuanText(a.account.dayAmount)}</td>
                  <td class="num nowrap">
                    <meter min="0" max="1" low="0.9" high="0.99" optimum="0" value={String(Math.min(1, a.dayUsed ?? 0))}></meter>{" "}
                    <span safe>{`${Math.floor((a.dayUsed ?? 0) * 100)}%`}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
