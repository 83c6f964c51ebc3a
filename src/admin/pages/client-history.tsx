/** @jsxImportSource @kitajs/html */
// The device history of one monitoring client (issue 22), as the client page shows it: a timeline
// of its online stretches and silences over the chosen range (an SVG drawn from the stretches;
// colours come from clients.css, no inline style), the silences longer than the heartbeat
// timeout, report latency, and the messages no rule could read. Data from core/clients/detail.ts.
import { reportReason } from "../reason-codes.ts";
import type { DeviceHistory } from "../../core/clients/history.ts";
import type { UnreadMessage } from "../../core/clients/detail.ts";
import type { Latency } from "../../core/clients/latency.ts";
import { formatLocal } from "../../core/time.ts";
import { attr, Time } from "../components.tsx";
import type { Translate } from "../i18n/index.ts";
import { duration } from "./client-bits.tsx";

const WIDTH = 1000;
/** A silence is drawn at least this wide (of WIDTH), so a short one stays visible on 30 days. */
const MIN_GAP = 3;
export const GAPS_LISTED = 20;

const hhmm = (at: number, tz: string) => formatLocal(at * 1000, tz).slice(5, 16);

export function Timeline(p: { h: DeviceHistory; tz: string; t: Translate }) {
  const { h, t } = p;
  const range = Math.max(1, h.to - h.from);
  const x = (at: number) => Math.round(((Math.min(Math.max(at, h.from), h.to) - h.from) / range) * WIDTH * 10) / 10;
  const ticks = [0, 1, 2, 3, 4].map((i) => h.from + (range * i) / 4);
  return (
    <figure class="cl-timeline" id="timeline">
      <svg viewBox={`0 0 ${WIDTH} 28`} preserveAspectRatio="none" role="img" aria-label={t("history.heading")}>
        <rect class="tl-none" x="0" y="0" width={String(WIDTH)} height="28" />
        {h.spans.map((s) => (
          <rect class="tl-on" x={String(x(s.from))} y="0" width={String(Math.max(0.5, x(s.to) - x(s.from)))} height="28" data-from={String(s.from)} data-to={String(s.to)}>
            <title safe>{t("history.span_title", { from: hhmm(s.from, p.tz), to: hhmm(s.to, p.tz) })}</title>
          </rect>
        ))}
        {h.gaps.map((g) => {
          // Offline from the moment the timeout ran out after the last beat until the next beat.
          const from = x(g.from + h.timeout);
          return (
            <rect class="tl-off" x={String(Math.min(from, WIDTH - MIN_GAP))} y="0" width={String(Math.max(MIN_GAP, x(g.to) - from))} height="28" data-gap={String(g.from)}>
              <title safe>{t("history.gap_title", { from: hhmm(g.from, p.tz), to: g.ongoing ? t("history.ongoing") : hhmm(g.to, p.tz), d: duration(g.seconds, t) })}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption class="cl-ticks">
        {ticks.map((at) => <span safe>{hhmm(Math.round(at), p.tz)}</span>)}
      </figcaption>
    </figure>
  );
}

export function GapsTable(p: { h: DeviceHistory; tz: string; t: Translate }) {
  const { h, t } = p;
  if (h.gaps.length === 0) return <p class="muted" id="gaps-none" safe>{t("history.gap_none", { t: h.timeout })}</p>;
  const shown = h.gaps.slice(-GAPS_LISTED).reverse();
  return (
    <div>
      <div class="table-wrap">
        <table class="table" id="gaps-table">
          <thead>
            <tr>
              <th safe>{t("history.col_last_beat")}</th>
              <th safe>{t("history.col_next_beat")}</th>
              <th class="num" safe>{t("history.col_silence")}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((g) => (
              <tr class="cl-gap" data-gap={String(g.from)}>
                <td class="nowrap"><Time at={g.from} tz={p.tz} /></td>
                <td class="nowrap">{g.ongoing ? <span class="tag tag-danger" safe>{t("history.ongoing")}</span> : <Time at={g.to} tz={p.tz} />}</td>
                <td class="num nowrap" safe>{duration(g.seconds, t)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {h.gaps.length > GAPS_LISTED ? <p class="hint muted" safe>{t("history.more_gaps", { n: GAPS_LISTED })}</p> : ""}
    </div>
  );
}

export function LatencyCard(p: { latency: Latency; tz: string; t: Translate }) {
  const { latency: l, t } = p;
  return (
    <section class="card" id="latency">
      <h2 safe>{t("latency.heading")}</h2>
      <p class="muted" safe>{t("latency.lead", { tz: p.tz })}</p>
      {l.rows.length === 0 ? (
        <p class="empty" id="latency-none" safe>{t("latency.none")}</p>
      ) : (
        <div>
          <dl class="cl-figures">
            <div><dt safe>{t("latency.median")}</dt><dd id="latency-median" safe>{duration(l.median ?? 0, t)}</dd></div>
            <div><dt safe>{t("latency.max")}</dt><dd id="latency-max" safe>{duration(l.max ?? 0, t)}</dd></div>
          </dl>
          <div class="table-wrap">
            <table class="table" id="latency-table">
              <thead>
                <tr>
                  <th safe>{t("latency.col_paid")}</th>
                  <th safe>{t("latency.col_received")}</th>
                  <th class="num" safe>{t("latency.col_latency")}</th>
                </tr>
              </thead>
              <tbody>
                {l.rows.slice(0, 10).map((r) => (
                  <tr data-report={String(r.reportId)}>
                    <td class="nowrap"><Time at={r.paidAt} tz={p.tz} /></td>
                    <td class="nowrap"><Time at={r.createdAt} tz={p.tz} /></td>
                    <td class="num nowrap" safe>{duration(r.seconds, t)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}

export function UnreadCard(p: { unread: UnreadMessage[]; tz: string; t: Translate }) {
  const { t } = p;
  return (
    <section class="card" id="unread">
      <h2 safe>{t("unread.heading")}</h2>
      <p class="muted" safe>{t("unread.lead", { n: 10 })}</p>
      {p.unread.length === 0 ? (
        <p class="empty" id="unread-none" safe>{t("unread.none")}</p>
      ) : (
        <div class="table-wrap">
          <table class="table" id="unread-table">
            <thead>
              <tr>
                <th safe>{t("client.col_time")}</th>
                <th safe>{t("unread.col_package")}</th>
                <th safe>{t("unread.col_title")}</th>
                <th safe>{t("unread.col_text")}</th>
                <th safe>{t("client.col_reason")}</th>
              </tr>
            </thead>
            <tbody>
              {p.unread.map((u) => (
                <tr data-report={String(u.report.id)}>
                  <td class="nowrap"><Time at={u.report.createdAt} tz={p.tz} /></td>
                  <td class="wrap mono" safe>{u.pkg || "—"}</td>
                  <td class="wrap" safe>{u.title || "—"}</td>
                  <td class="wrap">
                    <span safe>{u.text || "—"}</span>
                    {u.looksLikePayment ? <span class="tag tag-warn cl-looks" safe>{t("unread.looks_paid")}</span> : ""}
                  </td>
                  <td class="wrap muted" title={attr(u.report.reason)} safe>{reportReason(u.report, p.t)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
