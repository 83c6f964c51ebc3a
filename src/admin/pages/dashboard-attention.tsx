/** @jsxImportSource @kitajs/html */
// The attention list: money received with no order, notifications failing or given up, late
// payments, creation failures (core/browse/attention.ts). Each row links to its order or report
// page and shows the CLI command that looks closer, for an operator on the server's shell.
// Forwarded messages that were no payment are folded away under the lists, and count in no chip;
// monitoring clients offline get a chip of their own, linked to the client (or the clients page).
import { reportReason } from "../reason-codes.ts";
import type { Children } from "@kitajs/html";
import { ATTENTION_DAYS, ATTENTION_ROWS, type Attention } from "../../core/browse/attention.ts";
import type { ClientState } from "../../core/monitor-clients.ts";
import { duration, yuanText } from "../format.ts";
import { attr, Time } from "../components.tsx";
import type { Translate } from "../i18n/index.ts";
import { payTypeName } from "./dashboard-format.ts";
import { sendErrorText } from "../send-error.ts";

const enc = encodeURIComponent;
const orderLink = (tradeNo: string) => `/admin/orders/${enc(tradeNo)}`;

interface GroupProps {
  id: string;
  title: string;
  hint: string;
  count: number;
  more: boolean;
  /** Where the whole list is, when a console page can show it. */
  moreHref?: string;
  head: string[];
  /** The column holding an amount (right-aligned), if any. */
  numCol?: number;
  t: Translate;
  children: Children;
}

function Group(p: GroupProps) {
  if (p.count === 0) return "";
  return (
    <div class="dash-att" id={p.id}>
      <h3>
        <span safe>{p.title}</span> <span class="tag tag-danger" safe>{p.more ? `${p.count}+` : String(p.count)}</span>
      </h3>
      <p class="hint muted" safe>{p.hint}</p>
      <div class="table-wrap">
        <table class="table">
          <thead>
            <tr>{p.head.map((h, i) => <th class={i === p.numCol ? "num" : undefined} safe>{h}</th>)}</tr>
          </thead>
          <tbody>{p.children}</tbody>
        </table>
      </div>
      {!p.more ? "" : p.moreHref ? <p><a href={p.moreHref} safe>{p.t("dashboard.att_more")}</a></p> : <p class="hint muted" safe>{p.t("dashboard.att_newest", { n: p.count })}</p>}
    </div>
  );
}

const Cmd = (p: { cmd: string }) => <td class="dash-cmd-cell"><code class="dash-cmd" safe>{p.cmd}</code></td>;

/** Failing notifications counted over the groups shown (each group is one merchant and error). */
const failureCount = (a: Attention) => a.failureGroups.reduce((n, g) => n + g.count, 0);

/** Each chip: its count and whether the list goes on; the failing notifications count over their groups. */
const GROUPS: [string, string, Parameters<Translate>[0], (a: Attention) => [number, boolean]][] = [
  ["unmatchedReports", "att-unmatched", "dashboard.att_unmatched", (a) => [a.rows.unmatchedReports.length, a.more.unmatchedReports]],
  ["failingNotifications", "att-notify", "dashboard.att_notify", (a) => [failureCount(a), a.moreFailureGroups]],
  ["latePayments", "att-late", "dashboard.att_late", (a) => [a.rows.latePayments.length, a.more.latePayments]],
  ["creationFailures", "att-failed", "dashboard.att_failed", (a) => [a.rows.creationFailures.length, a.more.creationFailures]],
];

/** Phones (and the other monitoring clients) offline: one goes to its own page, several to the list. */
function OfflineChip(p: { offline: ClientState[]; t: Translate }) {
  const n = p.offline.length;
  if (n === 0) return "";
  const href = n === 1 ? `/admin/clients/${p.offline[0]!.id}` : "/admin/clients";
  const phones = p.offline.every((c) => c.kind !== "third-account");
  return (
    <a class="dash-alert" href={href} id="chip-offline">
      <span safe>{p.t(phones ? "dashboard.chip_offline_phones" : "dashboard.chip_offline_clients", { n })}</span>
    </a>
  );
}

/** One line at the top of the page: how many of each, linked to its list further down. */
export function AttentionSummary(p: { a: Attention; offline: ClientState[]; t: Translate }) {
  const { a, t } = p;
  const any = p.offline.length > 0 || GROUPS.some(([, , , n]) => n(a)[0] > 0);
  return (
    <nav class="dash-alerts" id="attention-summary" aria-label={t("dashboard.attention")}>
      <span class="dash-alerts-label" safe>{t("dashboard.attention")}</span>
      {!any ? <span class="tag tag-ok" safe>{t("dashboard.attention_clear")}</span> : ""}
      <OfflineChip offline={p.offline} t={t} />
      {GROUPS.filter(([, , , n]) => n(a)[0] > 0).map(([, id, label, n]) => {
        const [count, more] = n(a);
        return (
          <a class="dash-alert" href={`#${id}`}>
            <span safe>{t(label)}</span> <b safe>{more ? `${count}+` : String(count)}</b>
          </a>
        );
      })}
    </nav>
  );
}

/** Forwarded messages with no amount (ant forest, red packets, money going out): folded, no chip. */
function NotPayments(p: { a: Attention; tz: string; t: Translate }) {
  const { a, t, tz } = p;
  const rows = a.rows.notPayments;
  if (rows.length === 0) return "";
  const count = a.more.notPayments ? `${rows.length}+` : String(rows.length);
  return (
    <details class="dash-att dash-quiet" id="att-not-payments">
      <summary>
        <span safe>{t("dashboard.att_not_payments")}</span> <span class="tag" safe>{count}</span>
      </summary>
      <p class="hint muted" safe>{t("dashboard.att_not_payments_hint")}</p>
      <ul class="dash-quiet-list">
        {rows.map((x) => (
          <li>
            <Time at={x.createdAt} tz={tz} /> · <a href={`/admin/reports/${x.id}`} safe>{`#${x.id} · ${x.client || x.kind}`}</a>
            {x.pid === null ? "" : <span class="muted" safe>{` · ${x.pid}`}</span>}
            <span class="dash-quiet-reason muted" title={attr(x.reason)} safe>{reportReason(x, t)}</span>
          </li>
        ))}
      </ul>
      <p><a href="/admin/reports?outcome=unmatched&money=no" safe>{t("dashboard.att_more")}</a></p>
    </details>
  );
}

export function AttentionList(p: { a: Attention; tz: string; t: Translate }) {
  const { a, t, tz } = p;
  const r = a.rows;
  const failures = failureCount(a);
  const total = r.unmatchedReports.length + failures + r.latePayments.length + r.creationFailures.length;
  const col = (k: Parameters<Translate>[0]) => t(k);
  return (
    <section class="card" id="attention">
      <div class="dash-card-head">
        <h2 safe>{t("dashboard.attention")}</h2>
        {total === 0 ? "" : <span class="muted" safe>{t("dashboard.attention_lead", { days: ATTENTION_DAYS, n: ATTENTION_ROWS })}</span>}
      </div>
      {total === 0 ? <p class="notice notice-ok" id="attention-none" safe>{t("dashboard.attention_none", { days: ATTENTION_DAYS })}</p> : ""}
      <Group id="att-unmatched" title={t("dashboard.att_unmatched")} hint={t("dashboard.att_unmatched_hint")} count={r.unmatchedReports.length} more={a.more.unmatchedReports}
        moreHref="/admin/reports?outcome=unmatched&money=yes" numCol={2} head={[col("dashboard.col_time"), col("dashboard.col_report"), col("dashboard.col_money"), col("dashboard.col_merchant"), col("dashboard.col_reason"), col("dashboard.col_command")]} t={t}>
        {r.unmatchedReports.map((x) => (
          <tr>
            <td class="nowrap"><Time at={x.createdAt} tz={tz} /></td>
            <td class="nowrap"><a href={`/admin/reports/${x.id}`} safe>{`#${x.id} · ${payTypeName(x.payType, t)}`}</a></td>
            <td class="num" safe>{x.amount === null ? "—" : yuanText(x.amount)}</td>
            <td safe>{x.pid === null ? "—" : String(x.pid)}</td>
            <td class="dash-text" title={attr(x.reason)} safe>{reportReason(x, t)}</td>
            <Cmd cmd={`xpay report list --outcome unmatched --money yes${x.pid === null ? "" : ` --pid ${x.pid}`}`} />
          </tr>
        ))}
      </Group>
      <Group id="att-notify" title={t("dashboard.att_notify")} hint={t("dashboard.att_notify_hint", { n: a.minAttempts })} count={failures} more={a.moreFailureGroups}
        numCol={1} head={[col("dashboard.col_merchant"), col("dashboard.col_failures"), col("dashboard.col_last_error"), col("dashboard.col_last_time"), col("dashboard.col_command")]} t={t}>
        {/* The merchant and the count first: on a phone they are what shows before the table scrolls. */}
        {a.failureGroups.map((g) => (
          <tr data-failing={attr(`${g.pid}`)}>
            <td class="nowrap"><a href={`/admin/merchants/${g.pid}#merchant-delivery`} safe>{t("dashboard.n_merchant", { pid: g.pid })}</a></td>
            <td class="num nowrap">
              <span safe>{t("dashboard.n_times", { n: g.count })}</span>
              {g.givenUp > 0 ? <span class="tag tag-danger" safe>{t("dashboard.n_given_up", { n: g.givenUp })}</span> : ""}
            </td>
            <td class="dash-text" title={attr(g.error)} data-error safe>{sendErrorText(t, g.error) || "—"}</td>
            <td class="nowrap"><Time at={Math.floor(g.lastAt / 1000)} tz={tz} /></td>
            <Cmd cmd={`xpay notify resend ${g.pid} --reason "..."`} />
          </tr>
        ))}
      </Group>
      <Group id="att-late" title={t("dashboard.att_late")} hint={t("dashboard.att_late_hint")} count={r.latePayments.length} more={a.more.latePayments}
        numCol={2} head={[col("dashboard.col_time"), col("dashboard.col_order"), col("dashboard.col_money"), col("dashboard.col_merchant"), col("dashboard.col_late_by"), col("dashboard.col_command")]} t={t}>
        {r.latePayments.map((o) => (
          <tr>
            <td class="nowrap"><Time at={o.paidAt ?? 0} tz={tz} /></td>
            <td class="nowrap mono"><a href={orderLink(o.tradeNo)} safe>{o.tradeNo}</a></td>
            <td class="num" safe>{yuanText(o.tradeAmount ?? o.amount)}</td>
            <td safe>{String(o.pid)}</td>
            <td class="nowrap" safe>{duration(o.moneyAt - o.expireTime, t)}</td>
            <Cmd cmd={`xpay order inspect ${o.tradeNo}`} />
          </tr>
        ))}
      </Group>
      <Group id="att-failed" title={t("dashboard.att_failed")} hint={t("dashboard.att_failed_hint")} count={r.creationFailures.length} more={a.more.creationFailures}
        moreHref="/admin/orders?status=5" numCol={2} head={[col("dashboard.col_time"), col("dashboard.col_order"), col("dashboard.col_money"), col("dashboard.col_merchant"), col("dashboard.col_reason"), col("dashboard.col_command")]} t={t}>
        {r.creationFailures.map((o) => (
          <tr>
            <td class="nowrap"><Time at={o.createdAt} tz={tz} /></td>
            <td class="nowrap mono"><a href={orderLink(o.tradeNo)} safe>{o.tradeNo}</a></td>
            <td class="num" safe>{yuanText(o.amount)}</td>
            <td safe>{String(o.pid)}</td>
            <td class="dash-text">
              <span class="nowrap" safe>{payTypeName(o.payType, t)}</span>
              {o.failReason ? <span safe>{` · ${o.failReason}`}</span> : ""}
            </td>
            <Cmd cmd={`xpay order inspect ${o.tradeNo}`} />
          </tr>
        ))}
      </Group>
      <NotPayments a={a} tz={tz} t={t} />
    </section>
  );
}
