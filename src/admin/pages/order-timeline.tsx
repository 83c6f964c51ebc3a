/** @jsxImportSource @kitajs/html */
// An order's timeline (core/browse/timeline.ts) as a list: one entry per event with its local time,
// a coloured dot, a title and what matters about it. Each notification attempt shows the HTTP
// status, how long it took, whether the merchant acknowledged it, the error and the merchant's
// answer; the queued notification shows what is sent. Identical failures in a row arrive folded
// (core/browse/timeline-fold.ts): one entry "failed 13 times, last …" with the first time, the
// shared status, error and answer once, and each attempt's time behind a <details>. Every value is
// escaped; raw texts go in <pre>.
import { reportReason } from "../reason-codes.ts";
import { actionLabel } from "../audit-labels.ts";
import { attr } from "../components.tsx";
import type { TimelineEvent } from "../../core/browse/timeline.ts";
import type { TextKey, Translate } from "../i18n/index.ts";
import { kindName, OutcomeBadge, payTypeName, TimeMs, yuan } from "./order-bits.tsx";
import { sendErrorText } from "../send-error.ts";

type T = Translate;
type V = TimelineEvent["detail"][string] | undefined;

const str = (v: V) => (v === null || v === undefined ? "" : String(v));
const num = (v: V) => (typeof v === "number" ? v : null);
const cents = num;

/** The sent parameters one per line (`key=value`), as a merchant's developer compares them. */
function sentLines(json: string): string {
  try {
    return Object.entries(JSON.parse(json) as Record<string, string>).map(([k, v]) => `${k}=${v}`).join("\n");
  } catch {
    return json;
  }
}

function tone(e: TimelineEvent): string {
  switch (e.kind) {
    case "paid":
      return "ev-ok";
    case "notify_attempt":
      return e.detail.acknowledged ? "ev-ok" : "ev-danger";
    case "notify_failures":
      return "ev-danger";
    case "creation_failed":
      return "ev-danger";
    case "timed_out":
    case "closed":
      return "ev-warn";
    case "operator":
    case "report":
      return "ev-accent";
    default:
      return "";
  }
}

/** HTTP status (or a dash when none came back) and how long the attempt took. */
function StatusLine(p: { d: TimelineEvent["detail"]; t: T }) {
  return <><b safe>{p.d.http_status === null ? "—" : `HTTP ${str(p.d.http_status)}`}</b> · <span safe>{p.t("orders.d_duration", { n: str(p.d.duration_ms) })}</span></>;
}

/** The folded attempts: the first time, what they all answered, and each attempt behind <details>. */
function Failures(p: { e: TimelineEvent; t: T; tz: string }) {
  const { e, t } = p;
  const d = e.detail;
  return (
    <div>
      <div><span safe>{t("orders.d_first")}</span> <TimeMs ms={num(d.first_at_ms)} tz={p.tz} /> · <b safe>{d.http_status === null ? "—" : `HTTP ${str(d.http_status)}`}</b></div>
      {d.error ? <div><span safe>{t("orders.d_error")}</span>: <span title={attr(str(d.error))} data-error safe>{sendErrorText(t, str(d.error))}</span></div> : ""}
      <div class="raw-label" safe>{t("orders.d_answer")}</div>
      <pre class="raw" safe>{str(d.answer) || t("orders.d_no_answer")}</pre>
      <details class="ev-folded">
        <summary safe>{t("orders.d_all_attempts", { n: num(d.count) ?? 0 })}</summary>
        <ol>
          {(e.folded ?? []).map((a) => <li><TimeMs ms={a.atMs} tz={p.tz} /> · <StatusLine d={a.detail} t={t} /></li>)}
        </ol>
      </details>
    </div>
  );
}

function Body(p: { e: TimelineEvent; t: T; tz: string }) {
  const { e, t } = p;
  const d = e.detail;
  switch (e.kind) {
    case "created":
      return <div><b safe>{yuan(cents(d.amount))}</b> · <span safe>{payTypeName(t, str(d.pay_type))}</span> · <span safe>{str(d.family)}</span> · <span class="mono" safe>{str(d.out_trade_no)}</span></div>;
    case "allocated":
      return <div><span safe>{`#${str(d.account_id)} ${str(d.account)}`}</span> · <b safe>{yuan(cents(d.trade_amount))}</b></div>;
    case "creation_failed":
      return <div safe>{str(d.reason)}</div>;
    case "report":
      return (
        <div>
          <div>
            <a href={`/admin/reports/${str(d.id)}`} safe>{`#${str(d.id)}`}</a> · <span safe>{kindName(t, str(d.report_kind))}</span> · <span safe>{str(d.client)}</span> · <b safe>{yuan(cents(d.amount))}</b>
          </div>
          {d.reason ? <div title={attr(str(d.reason))} safe>{reportReason({ reason: str(d.reason), reasonCode: d.reason_code === undefined ? null : str(d.reason_code), reasonArgs: d.reason_args === undefined ? null : str(d.reason_args) }, t)}</div> : ""}
        </div>
      );
    case "paid":
      return (
        <div>
          {d.buyer ? <div><span safe>{t("orders.d_buyer")}</span>: <span safe>{str(d.buyer)}</span></div> : ""}
          {d.api_trade_no ? <div><span safe>{t("orders.d_api_trade_no")}</span>: <span class="mono" safe>{str(d.api_trade_no)}</span></div> : ""}
        </div>
      );
    case "notify_queued":
      return (
        <div>
          <div><b safe>{str(d.method)}</b> <span class="mono" safe>{str(d.url)}</span></div>
          <div class="raw-label" safe>{t("orders.d_sent")}</div>
          <pre class="raw" safe>{sentLines(str(d.sent))}</pre>
        </div>
      );
    case "notify_attempt":
      return (
        <div>
          <div><StatusLine d={d} t={t} /></div>
          {d.error ? <div><span safe>{t("orders.d_error")}</span>: <span title={attr(str(d.error))} data-error safe>{sendErrorText(t, str(d.error))}</span></div> : ""}
          <div class="raw-label" safe>{t("orders.d_answer")}</div>
          <pre class="raw" safe>{str(d.answer) || t("orders.d_no_answer")}</pre>
        </div>
      );
    case "notify_failures":
      return <Failures e={e} t={t} tz={p.tz} />;
    case "operator":
      return (
        <div>
          <div safe>{t("orders.d_by", { actor: str(d.actor) })}</div>
          {d.reason ? <div><span safe>{t("orders.d_reason")}</span>: <span safe>{str(d.reason)}</span></div> : ""}
        </div>
      );
    default:
      return "";
  }
}

function Title(p: { e: TimelineEvent; t: T; tz: string }) {
  const { e, t } = p;
  const d = e.detail;
  if (e.kind === "notify_failures") {
    return <span class="ev-title"><span safe>{t("orders.ev_notify_failures", { n: num(d.count) ?? 0 })}</span> <TimeMs ms={num(d.last_at_ms)} tz={p.tz} /></span>;
  }
  if (e.kind === "operator") {
    const known = ["order.close", "order.confirm", "order.simulate_pay", "notification.replay", "report.assign"].includes(str(d.action));
    return <span class="ev-title" title={attr(str(d.action))} safe>{known ? t(`orders.act_${str(d.action)}` as TextKey) : `${t("orders.ev_operator")} ${actionLabel(t, str(d.action))}`}</span>;
  }
  return (
    <span class="ev-title">
      <span safe>{t(`orders.ev_${e.kind}` as TextKey)}</span>
      {e.kind === "report" ? <OutcomeBadge outcome={str(d.outcome) as "matched"} t={t} /> : ""}
      {e.kind === "paid" && d.late ? <span class="tag tag-warn" safe>{t("orders.late")}</span> : ""}
      {e.kind === "notify_attempt" ? <span class={d.acknowledged ? "tag tag-ok" : "tag tag-danger"} safe>{t(d.acknowledged ? "orders.d_ack" : "orders.d_not_ack")}</span> : ""}
    </span>
  );
}

export function Timeline(p: { events: TimelineEvent[]; t: T; tz: string }) {
  return (
    <ol class="timeline" id="timeline">
      {p.events.map((e) => (
        <li class={`ev ${tone(e)}`.trim()} data-kind={e.kind}>
          <span class="ev-time"><TimeMs ms={e.atMs} tz={p.tz} /></span>
          <span class="ev-dot" aria-hidden="true"></span>
          <div class="ev-main">
            <Title e={e} t={p.t} tz={p.tz} />
            <div class="ev-body"><Body e={e} t={p.t} tz={p.tz} /></div>
          </div>
        </li>
      ))}
    </ol>
  );
}
