/** @jsxImportSource @kitajs/html */
// GET /admin/reports/:id: one report as received (raw content, JSON formatted when it is JSON) and
// as read (kind, amount, outcome, the order it paid or named). Money that matched no order gets
// the assign form: an order number (the candidates the store finds: the merchant's orders payable
// when the money arrived, nearest amount first) and a required reason. POST .../assign calls the
// audited core function `xpay report assign` calls; a refusal is shown inline, nothing changed.
import { Candidates } from "./report-candidates.tsx";
import { reportReason } from "../reason-codes.ts";
import { type ReportDetail, reportDetail } from "../../core/browse/order-detail.ts";
import { REASON_MAX } from "../../core/manual-payment.ts";
import { assignReportAs } from "../../core/order-actions.ts";
import { attr, CsrfInput, Notice, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, fragment, page } from "../render.tsx";
import { kindName, OutcomeBadge, payTypeName, refusalText, StatusBadge, TRADE_NO_PARAM, yuan } from "./order-bits.tsx";

interface AssignState {
  done?: string;
  refusal?: string;
  errors?: { trade_no?: string; reason?: string };
  tradeNo?: string;
  reason?: string;
}

/** Pretty JSON when the content is JSON (what the phone apps send), else the text as received. */
function rawShown(raw: string): { json: boolean; text: string } {
  const v = parsed(raw);
  if (v !== undefined) return { json: true, text: JSON.stringify(expand(v), null, 2) };
  // A form or query body (a GET report): one "name = value" per line, decoded.
  if (/^[\w.[\]-]+=[^&]*(&[\w.[\]-]+=[^&]*)*$/.test(raw)) {
    return { json: false, text: [...new URLSearchParams(raw)].map(([k, x]) => `${k} = ${x}`).join("\n") };
  }
  return { json: false, text: raw };
}

/** An object or array in JSON text; undefined for anything else. */
function parsed(text: string): object | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" ? v : undefined;
  } catch {
    return undefined;
  }
}

/** JSON carried as a string inside JSON (SmsForwarder's content field) shown as JSON, not as an escaped string. */
function expand(v: unknown, depth = 0): unknown {
  if (depth > 4) return v;
  if (typeof v === "string") {
    const inner = parsed(v);
    return inner === undefined ? v : expand(inner, depth + 1);
  }
  if (Array.isArray(v)) return v.map((x) => expand(x, depth + 1));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x, depth + 1)]));
  return v;
}

function ReadCard(p: { ctx: AdminContext; d: ReportDetail; merchantName: string }) {
  const { ctx, d } = p;
  const r = d.report;
  const t = ctx.t;
  const raw = rawShown(r.raw);
  const payType = r.payType ? payTypeName(t, r.payType) : "—";
  return (
    <div class="detail-grid">
      <div class="card" id="report-read">
        <h2 safe>{t("reports.read")}</h2>
        <dl class="kv">
          <dt safe>{t("reports.k_time")}</dt><dd><Time at={r.createdAt} tz={ctx.tz} /></dd>
          <dt safe>{t("reports.k_kind")}</dt><dd safe>{kindName(t, r.kind)}</dd>
          <dt safe>{t("reports.k_merchant")}</dt><dd safe>{r.pid === null ? t("reports.third_party") : `${r.pid} ${p.merchantName}`}</dd>
          <dt safe>{t("reports.k_client")}</dt><dd safe>{r.client || "—"}</dd>
          <dt safe>{t("reports.k_amount")}</dt><dd class="num" safe>{yuan(r.amount)}</dd>
          <dt safe>{t("reports.k_pay_type")}</dt><dd safe>{payType}</dd>
          <dt safe>{t("reports.k_channel_code")}</dt><dd class="mono" safe>{r.channelCode || "—"}</dd>
          <dt safe>{t("reports.k_outcome")}</dt><dd><OutcomeBadge outcome={r.outcome} t={t} /></dd>
          <dt safe>{t("reports.k_reason")}</dt><dd title={attr(r.reason)} safe>{reportReason(r, t) || "—"}</dd>
          <dt safe>{t("reports.k_order")}</dt>
          <dd class="mono">{r.tradeNo ? <a href={`/admin/orders/${r.tradeNo}`} id="report-order" safe>{r.tradeNo}</a> : <span class="faint">—</span>}</dd>
          {r.source ? <><dt safe>{t("reports.k_source")}</dt><dd class="mono" safe>{r.source}</dd></> : ""}
          {r.dedupeKey ? <><dt safe>{t("reports.k_dedupe")}</dt><dd class="mono" safe>{r.dedupeKey}</dd></> : ""}
        </dl>
      </div>
      <div class="card" id="report-raw">
        <h2><span safe>{t("reports.raw")}</span> <span class="tag" safe>{t(raw.json ? "reports.raw_json" : "reports.raw_text")}</span></h2>
        <pre class="raw" safe>{raw.text}</pre>
      </div>
    </div>
  );
}

function AssignCard(p: { ctx: AdminContext; d: ReportDetail; state: AssignState; accounts: Map<number, string> }) {
  const { ctx, d, state } = p;
  const t = ctx.t;
  const e = state.errors ?? {};
  const path = `/admin/reports/${d.report.id}/assign`;
  const now = ctx.gw.clock.now();
  return (
    <div class="card" id="report-assign">
      <h2 safe>{t("reports.assign")}</h2>
      <p class="muted" safe>{t("reports.assign_hint")}</p>
      {state.refusal ? <Notice kind="error" text={state.refusal} id="assign-refused" /> : ""}
      <form method="post" action={path} hx-post={path} hx-target="#report-view" hx-swap="outerHTML" hx-confirm={attr(t("reports.assign_confirm"))} id="assign-form">
        <CsrfInput csrf={ctx.csrf} />
        <div class="field">
          <label for="f-trade_no" safe>{t("reports.assign_trade_no")}</label>
          <input id="f-trade_no" name="trade_no" type="text" value={attr(state.tradeNo ?? "")} maxlength={64} required autocomplete="off" class="mono"
            aria-invalid={e.trade_no ? "true" : undefined} aria-describedby={e.trade_no ? "f-trade_no-error" : undefined} />
          {e.trade_no ? <p class="field-error" id="f-trade_no-error" safe>{e.trade_no}</p> : ""}
        </div>
        <div class="field">
          <label for="f-reason" safe>{t("reports.assign_reason")}</label>
          <textarea id="f-reason" name="reason" required maxlength={REASON_MAX} placeholder={attr(t("reports.assign_reason_placeholder"))}
            aria-invalid={e.reason ? "true" : undefined} aria-describedby={e.reason ? "f-reason-error" : undefined} safe>{state.reason ?? ""}</textarea>
          {e.reason ? <p class="field-error" id="f-reason-error" safe>{e.reason}</p> : ""}
        </div>
        <button class="btn btn-primary" type="submit" safe>{t("reports.assign_submit")}</button>
      </form>
      <h3 class="candidates-head" safe>{t("reports.candidates")}</h3>
      {d.candidates.length === 0 ? (
        <p class="muted" id="no-candidates" safe>{t("reports.candidates_none")}</p>
      ) : (
        <div>
          <p class="hint muted" safe>{t("reports.candidates_hint")}</p>
          <Candidates orders={d.candidates} paid={d.report.amount ?? 0} accounts={p.accounts} now={now} tz={ctx.tz} t={t} />
        </div>
      )}
    </div>
  );
}

async function ReportView(p: { ctx: AdminContext; d: ReportDetail; state: AssignState }) {
  const { ctx, d } = p;
  const t = ctx.t;
  const merchant = d.report.pid === null ? null : await ctx.gw.store.getMerchant(d.report.pid);
  const accounts = new Map(d.assignable ? (await ctx.gw.store.listChannels()).map((a) => [a.id, a.name]) : []);
  return (
    <div id="report-view">
      <div class="page-head detail-head">
        <h1 safe>{t("reports.detail_title", { id: d.report.id })}</h1>
        <OutcomeBadge outcome={d.report.outcome} t={t} />
      </div>
      {p.state.done ? <Notice kind="ok" text={p.state.done} id="assign-done" /> : ""}
      <ReadCard ctx={ctx} d={d} merchantName={merchant?.name ?? ""} />
      {d.assignable ? <AssignCard ctx={ctx} d={d} state={p.state} accounts={accounts} /> : ""}
    </div>
  );
}

const idParam = (v: string | undefined) => (v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : null);

async function answerReport(ctx: AdminContext, state: AssignState = {}, status = 200): Promise<Response> {
  const id = idParam(ctx.params.id);
  const d = id === null ? null : await reportDetail(ctx.gw, id);
  if (!d) return errorAnswer(ctx, 404, ctx.t("reports.not_found"));
  const safeView = await ReportView({ ctx, d, state });
  if (ctx.htmx) return fragment(safeView, status);
  const t = ctx.t;
  return page(ctx, {
    title: t("reports.detail_title", { id: d.report.id }),
    status,
    styles: ["orders.css"],
    scripts: ["orders.js"],
    children: (
      <section>
        <a class="back" href="/admin/reports" safe>{t("reports.back")}</a>
        {safeView}
      </section>
    ),
  });
}

async function assign(ctx: AdminContext): Promise<Response> {
  const id = idParam(ctx.params.id);
  if (id === null || !(await ctx.gw.store.browse.getReport(id))) return errorAnswer(ctx, 404, ctx.t("reports.not_found"));
  const tradeNo = (ctx.form.get("trade_no") ?? "").trim();
  const reason = ctx.form.get("reason") ?? "";
  const kept = { tradeNo: tradeNo.slice(0, 64), reason };
  if (!TRADE_NO_PARAM.test(tradeNo)) return answerReport(ctx, { ...kept, errors: { trade_no: ctx.t("reports.e_trade_no") } }, 422);
  const r = await assignReportAs(ctx.gw, ctx.actor, id, tradeNo, reason);
  if (r.ok) {
    if (!ctx.htmx) return seeOther(`/admin/reports/${id}?done=${encodeURIComponent(tradeNo)}`);
    return answerReport(ctx, { done: ctx.t("reports.done_assigned", { trade_no: tradeNo }) });
  }
  const { code } = r.refusal;
  if (code === "reason_missing" || code === "reason_too_long") return answerReport(ctx, { ...kept, errors: { reason: refusalText(ctx.t, code) } }, 422);
  if (code === "no_order") return answerReport(ctx, { ...kept, errors: { trade_no: refusalText(ctx.t, code) } }, 422);
  return answerReport(ctx, { ...kept, refusal: refusalText(ctx.t, code) }, 422);
}

/** After a plain assign the browser comes back with ?done=<trade_no>; only the report's own order is named. */
async function showReport(ctx: AdminContext): Promise<Response> {
  const done = ctx.query.get("done");
  const id = idParam(ctx.params.id);
  const r = id === null ? null : await ctx.gw.store.browse.getReport(id);
  const paid = done && r?.tradeNo === done ? ctx.t("reports.done_assigned", { trade_no: done }) : undefined;
  return answerReport(ctx, { done: paid });
}

export const reportsPageRoutes: AdminPage["routes"] = [
  { method: "GET", path: "/admin/reports/:id", handle: showReport },
  { method: "POST", path: "/admin/reports/:id/assign", handle: assign },
];
