/** @jsxImportSource @kitajs/html */
// Pieces the monitoring-client pages share: ages and durations in words, kind, outcome and status
// badges, and the table of reports with their raw content and how each was read (the client page
// and the setup helper's live list). Every text they print is escaped.
import { showYuan } from "../../core/money.ts";
import type { StoredReport } from "../../core/store.ts";
import { formatLocal } from "../../core/time.ts";
import { Time } from "../components.tsx";
import type { TextKey, Translate } from "../i18n/index.ts";

/** "35 秒前", "3 分钟前", ... rounded down. */
export function ago(seconds: number, t: Translate): string {
  if (seconds < 60) return t("clients.ago_s", { n: seconds });
  if (seconds < 3600) return t("clients.ago_m", { n: Math.floor(seconds / 60) });
  if (seconds < 86400) return t("clients.ago_h", { n: Math.floor(seconds / 3600) });
  return t("clients.ago_d", { n: Math.floor(seconds / 86400) });
}

/** "12 秒", "3 分 5 秒", "2 小时 5 分", "3 天 4 小时"; negative values keep their sign. */
export function duration(seconds: number, t: Translate): string {
  const sign = seconds < 0 ? "-" : "";
  const s = Math.abs(Math.round(seconds));
  if (s < 60) return sign + t("clients.dur_s", { n: s });
  if (s < 3600) return sign + t("clients.dur_m", { m: Math.floor(s / 60), s: s % 60 });
  if (s < 86400) return sign + t("clients.dur_h", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return sign + t("clients.dur_d", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
}

/** A text key built from data, only when it exists (an unknown kind or outcome shows as it is). */
function known(t: Translate, key: string, fallback: string): string {
  const text = t(key as TextKey);
  return text === key ? fallback : text;
}

export const clientKindName = (t: Translate, kind: string) => known(t, `clients.kind_${kind}`, kind);
export const reportKindName = (t: Translate, kind: string) => known(t, `client.kind_${kind}`, kind);
export const payTypeName = (t: Translate, payType: string) => known(t, `clients.pt_${payType}`, payType);

const OUTCOME_TAG: Record<string, string> = { matched: "tag-ok", unmatched: "tag-warn", duplicate: "", rejected: "tag-danger", accepted: "" };

export function OutcomeTag(p: { outcome: string; t: Translate }) {
  return <span class={`tag ${OUTCOME_TAG[p.outcome] ?? ""}`.trim()} safe>{known(p.t, `client.outcome_${p.outcome}`, p.outcome)}</span>;
}

export function OnlineTag(p: { online: boolean; never?: boolean; t: Translate }) {
  if (p.never) return <span class="tag" safe>{p.t("clients.never")}</span>;
  return p.online ? <span class="tag tag-ok" safe>{p.t("clients.online")}</span> : <span class="tag tag-danger" safe>{p.t("clients.offline")}</span>;
}

/** "3 分钟前" with the full local time as its tooltip. */
export function Ago(p: { at: number; now: number; tz: string; t: Translate }) {
  if (!p.at) return <span class="faint" safe>{p.t("clients.never")}</span>;
  return <time datetime={new Date(p.at * 1000).toISOString()} title={formatLocal(p.at * 1000, p.tz)} safe>{ago(Math.max(0, p.now - p.at), p.t)}</time>;
}

/** The raw report as received, indented when it is JSON (a forwarded `content` is shown parsed too). */
export function prettyRaw(raw: string): string {
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    if (v && typeof v === "object" && typeof v.content === "string") {
      try {
        v.content = JSON.parse(v.content);
      } catch {
        // not JSON: shown as the string it is
      }
    }
    return JSON.stringify(v, null, 2);
  } catch {
    return raw;
  }
}

/** Reports newest first; rows with an id above `newAfter` are marked new (they arrived while watching). */
export function ReportsTable(p: { reports: StoredReport[]; tz: string; t: Translate; newAfter?: number; id: string; client?: boolean }) {
  const { t } = p;
  return (
    <div class="table-wrap">
      <table class="table cl-reports" id={p.id}>
        <thead>
          <tr>
            <th safe>{t("client.col_time")}</th>
            <th safe>{t("client.col_kind")}</th>
            {p.client ? "" : <th safe>{t("clients.col_name")}</th>}
            <th class="num" safe>{t("client.col_amount")}</th>
            <th safe>{t("client.col_outcome")}</th>
            <th safe>{t("client.col_reason")}</th>
            <th safe>{t("client.col_order")}</th>
            <th safe>{t("client.col_raw")}</th>
          </tr>
        </thead>
        <tbody>
          {p.reports.map((r) => (
            <tr data-report={String(r.id)} class={p.newAfter !== undefined && r.id > p.newAfter ? "cl-new" : undefined}>
              <td class="nowrap">
                <Time at={r.createdAt} tz={p.tz} />
                {p.newAfter !== undefined && r.id > p.newAfter ? <span class="tag tag-accent cl-new-tag" safe>{t("client.new")}</span> : ""}
              </td>
              <td class="nowrap" safe>{reportKindName(t, r.kind)}</td>
              {p.client ? "" : <td class="wrap" safe>{r.client || "—"}</td>}
              <td class="num nowrap" safe>{r.amount === null ? "—" : showYuan(r.amount)}</td>
              <td class="nowrap"><OutcomeTag outcome={r.outcome} t={t} /></td>
              <td class="wrap" safe>{r.reason || "—"}</td>
              <td class="nowrap mono">{r.tradeNo ? <a href={`/admin/orders/${encodeURIComponent(r.tradeNo)}`} safe>{r.tradeNo}</a> : <span class="faint">—</span>}</td>
              <td>
                <details class="cl-raw">
                  <summary safe>{t("client.raw_show")}</summary>
                  <pre safe>{prettyRaw(r.raw)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
