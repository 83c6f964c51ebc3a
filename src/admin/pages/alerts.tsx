/** @jsxImportSource @kitajs/html */
// /admin/alerts: the operator's alert channels on the functions `xpay alert` uses
// (core/alerts/channel-admin.ts): the list (secrets masked by maskConfig) with the alerts firing
// now, add (one form per type, its fields from the channel kind; the rule's refusal shown as the
// CLI words it; a generated webhook secret shown once, on the answer to the POST, never again),
// test (a sample message sent now, its answer shown; audited here as `alert.test` since it sends
// to the outside world), remove (audited by the core), and the history of what was sent.
import { audit } from "../../core/admin/audit.ts";
import { addAlertChannel, removeAlertChannel, testAlertChannel } from "../../core/alerts/channel-admin.ts";
import { CHANNEL_KINDS, CHANNEL_TYPES, maskConfig } from "../../core/alerts/channels/index.ts";
import type { AlertAttempt, ChannelType } from "../../core/alerts/store.ts";
import { attr, CsrfInput, Field, Notice, PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import type { TextKey, Translate } from "../i18n/index.ts";
import { seeOther } from "../http.ts";
import { problemText } from "../problem-text.ts";
import { errorAnswer, page } from "../render.tsx";
import { TimeMs } from "./order-bits.tsx";
import { sendErrorText } from "../send-error.ts";

const HISTORY = 30;
const WEBHOOK_TYPES: readonly string[] = ["dingtalk", "feishu", "wecom"];
const typeOf = (v: string | null): ChannelType => ((CHANNEL_TYPES as string[]).includes(v ?? "") ? (v as ChannelType) : "webhook");

/** The attempt errors xpay words itself (core/alerts/channels/send.ts, kind.ts, deliver.ts) in the page's language; a network error (connection refused, reset, TLS) reads as send-error.ts words it, keeping its code; the vendor's own words stay as they came. */
const ERRORS: [RegExp, TextKey, (m: RegExpExecArray) => Record<string, string>][] = [
  [/^timed out after (\d+) ms$/, "alerts.err_timeout", (m) => ({ ms: m[1]! })],
  [/^channel removed$/, "alerts.err_removed", () => ({})],
  [/^answer is not a JSON object$/, "alerts.err_not_object", () => ({})],
  [/^answer is not JSON: (.*)$/s, "alerts.err_not_json", (m) => ({ body: m[1]! })],
  [/^unknown channel type (.*)$/, "alerts.err_type", (m) => ({ type: m[1]! })],
];

function attemptError(e: string, t: Translate): string {
  for (const [re, key, vars] of ERRORS) {
    const m = re.exec(e);
    if (m) return t(key, vars(m));
  }
  return sendErrorText(t, e);
}

const lastAnswer = (a: AlertAttempt | null, t: Translate): string => (a ? [a.httpStatus !== null ? `HTTP ${a.httpStatus}` : "", attemptError(a.error, t)].filter(Boolean).join(" · ") : "");

function AddForm(p: { ctx: AdminContext; type: ChannelType; form: URLSearchParams }) {
  const { ctx, type } = p;
  const t = ctx.t;
  const kind = CHANNEL_KINDS[type];
  const v = (k: string) => p.form.get(k) ?? "";
  return (
    <section class="card" id="alert-add">
      <h2 safe>{t("alerts.add_title")}</h2>
      <p class="actions">
        <span class="muted" safe>{t("alerts.add_pick")}</span>
        {CHANNEL_TYPES.map((ty) => <a class={ty === type ? "btn btn-small btn-primary" : "btn btn-small"} href={`/admin/alerts?type=${ty}#alert-add`} data-alert-type={ty} safe>{CHANNEL_KINDS[ty].label}</a>)}
      </p>
      <form method="post" action="/admin/alerts" class="manage-form" id="alert-form">
        <CsrfInput csrf={ctx.csrf} />
        <input type="hidden" name="type" value={attr(type)} />
        <Field label={t("alerts.f_name")} name="name" value={v("name")} hint={t("alerts.f_name_hint")} required maxlength={40} />
        {WEBHOOK_TYPES.includes(type) ? <Field label={t("alerts.f_webhook")} name="webhook" type="url" value={v("webhook")} /> : ""}
        {kind.fields.map((f) => (
          <Field label={`${f.key}${f.required ? " *" : ""}`} name={`o_${f.key}`} type={f.secret ? "password" : "text"} value={f.secret ? "" : v(`o_${f.key}`)} hint={f.values ? `${f.help} (${f.values.join(" / ")})` : f.help} />
        ))}
        <button class="btn btn-primary" type="submit" id="alert-add-submit" safe>{t("alerts.add")}</button>
      </form>
    </section>
  );
}

async function listPage(ctx: AdminContext, o: { notice?: { kind: "ok" | "error"; text: string }; form?: URLSearchParams; status?: number } = {}): Promise<Response> {
  const t = ctx.t;
  const [channels, firing, history] = await Promise.all([ctx.gw.store.alerts.listChannels(), ctx.gw.store.alerts.activeInstances(), ctx.gw.store.alerts.history({ limit: HISTORY })]);
  const form = o.form ?? ctx.query;
  const done = ctx.query.get("done");
  const name = ctx.query.get("name") ?? "";
  const notice = o.notice ?? (done === "added" ? { kind: "ok" as const, text: t("alerts.added", { name }) } : done === "removed" ? { kind: "ok" as const, text: t("alerts.removed", { name }) } : undefined);
  return page(ctx, {
    title: t("alerts.title"),
    status: o.status,
    styles: ["manage.css"],
    children: (
      <section>
        <PageHead title={t("alerts.title")} lead={t("alerts.intro")} />
        {notice ? <Notice kind={notice.kind} text={notice.text} id="alerts-notice" /> : ""}
        {firing.length ? <Notice kind="warn" text={`${t("alerts.firing", { n: firing.length })} · ${firing.map((f) => f.finding.title).join(" · ")}`} /> : ""}
        <div class="table-wrap cards">
          <table class="table" id="alerts-table">
            <thead><tr><th safe>{t("alerts.col_name")}</th><th safe>{t("alerts.col_type")}</th><th safe>{t("alerts.col_config")}</th><th safe>{t("alerts.col_created")}</th><th></th></tr></thead>
            <tbody>
              {channels.length === 0 ? <tr><td colspan="5" class="empty" safe>{t("alerts.none")}</td></tr> : channels.map((c) => (
                <tr data-channel={attr(c.name)}>
                  <td class="mono c-title" safe>{c.name}</td>
                  <td class="nowrap c-badge" safe>{CHANNEL_KINDS[c.type]?.label ?? c.type}</td>
                  <td class="wrap small mono c-full" data-label={t("alerts.col_config")} safe>{Object.entries(maskConfig(c.type, c.config)).map(([k, val]) => `${k}=${val}`).join(" ")}</td>
                  <td class="nowrap" data-label={t("alerts.col_created")}><Time at={c.createdAt} tz={ctx.tz} /></td>
                  <td class="nowrap c-actions">
                    <div class="actions">
                      <form method="post" action={`/admin/alerts/${encodeURIComponent(c.name)}/test`}><CsrfInput csrf={ctx.csrf} /><button class="btn btn-small" type="submit" safe>{t("alerts.test")}</button></form>
                      <form method="post" action={`/admin/alerts/${encodeURIComponent(c.name)}/remove`} data-confirm={t("alerts.remove_confirm")}><CsrfInput csrf={ctx.csrf} /><button class="btn btn-small btn-danger" type="submit" safe>{t("alerts.remove")}</button></form>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <AddForm ctx={ctx} type={typeOf(form.get("type"))} form={form} />
        <h2 safe>{t("alerts.history", { n: HISTORY })}</h2>
        <div class="table-wrap cards">
          <table class="table" id="alerts-history">
            <thead><tr><th safe>{t("alerts.col_at")}</th><th safe>{t("alerts.col_channel")}</th><th safe>{t("alerts.col_status")}</th><th class="num" safe>{t("alerts.col_attempts")}</th><th safe>{t("alerts.col_title")}</th><th safe>{t("alerts.col_error")}</th></tr></thead>
            <tbody>
              {history.length === 0 ? <tr><td colspan="6" class="empty" safe>{t("alerts.no_history")}</td></tr> : history.map((r) => (
                <tr>
                  <td class="nowrap c-title"><TimeMs ms={r.createdAt} tz={ctx.tz} /></td>
                  <td class="mono" data-label={t("alerts.col_channel")} safe>{r.channelName}</td>
                  <td class="c-badge"><span class={r.status === "sent" ? "tag tag-ok" : r.status === "failed" ? "tag tag-danger" : "tag"} safe>{t(`alerts.status_${r.status}` as TextKey)}</span></td>
                  <td class="num" data-label={t("alerts.col_attempts")} safe>{String(r.attempts)}</td>
                  <td class="wrap c-full" data-label={t("alerts.col_title")} safe>{r.title}</td>
                  <td class="wrap small c-full" data-label={t("alerts.col_error")} safe>{lastAnswer(r.last, t)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    ),
  });
}

async function add(ctx: AdminContext): Promise<Response> {
  const f = ctx.form;
  const type = typeOf(f.get("type"));
  const options: Record<string, string> = {};
  for (const field of CHANNEL_KINDS[type].fields) {
    const val = (f.get(`o_${field.key}`) ?? "").trim();
    if (val !== "") options[field.key] = val;
  }
  const webhook = (f.get("webhook") ?? "").trim();
  const r = await addAlertChannel(ctx.gw, ctx.actor, { name: (f.get("name") ?? "").trim(), type, options, webhook: webhook === "" ? undefined : webhook });
  if (!r.ok) return listPage(ctx, { notice: { kind: "error", text: ctx.t("alerts.refused", { reason: problemText(r.problem, ctx.t) }) }, form: f, status: 422 });
  // A generated secret is shown on this answer only (never stored in a URL, never shown again).
  if (r.generatedSecret) return listPage(ctx, { notice: { kind: "ok", text: `${ctx.t("alerts.added", { name: r.channel.name })} ${ctx.t("alerts.secret_once", { secret: r.generatedSecret })}` }, form: new URLSearchParams() });
  return seeOther(`/admin/alerts?done=added&name=${encodeURIComponent(r.channel.name)}`);
}

async function test(ctx: AdminContext): Promise<Response> {
  const name = ctx.params.name ?? "";
  const r = await testAlertChannel(ctx.gw, name);
  if (!r) return errorAnswer(ctx, 404, ctx.t("alerts.not_found"));
  const a = r.attempt;
  await audit(ctx.gw, { actor: ctx.actor, action: "alert.test", target: `alert_channel:${name}`, after: { ok: a.ok, http_status: a.httpStatus, error: a.error } });
  const text = a.ok ? ctx.t("alerts.test_ok", { name, http: a.httpStatus ?? "—", ms: a.durationMs }) : ctx.t("alerts.test_failed", { name, error: a.error ? attemptError(a.error, ctx.t) : `HTTP ${a.httpStatus}` });
  return listPage(ctx, { notice: { kind: a.ok ? "ok" : "error", text }, form: new URLSearchParams() });
}

async function remove(ctx: AdminContext): Promise<Response> {
  const name = ctx.params.name ?? "";
  if (!(await removeAlertChannel(ctx.gw, ctx.actor, name))) return errorAnswer(ctx, 404, ctx.t("alerts.not_found"));
  return seeOther(`/admin/alerts?done=removed&name=${encodeURIComponent(name)}`);
}

export const alertsPage: AdminPage = {
  nav: { path: "/admin/alerts", label: "alerts.nav", order: 75 },
  routes: [
    { method: "GET", path: "/admin/alerts", handle: (ctx) => listPage(ctx) },
    { method: "POST", path: "/admin/alerts", handle: add },
    { method: "POST", path: "/admin/alerts/:name/test", handle: test },
    { method: "POST", path: "/admin/alerts/:name/remove", handle: remove },
  ],
};
