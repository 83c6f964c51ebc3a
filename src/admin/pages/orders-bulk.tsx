/** @jsxImportSource @kitajs/html */
// The orders list's newer parts: the filter's totals (GET /admin/orders/totals, loaded by htmx after
// the page so the list itself stays one index walk), each row's notification with a resend (POST
// :trade_no/resend-row), the bulk close / resend of ticked rows (POST /admin/orders/bulk, a reason
// required, core/order-bulk.ts audits), and the CSV of the whole filter (GET /admin/orders/export.csv,
// streamed page by page by core/browse/order-export.ts).
import { ordersCsv } from "../../core/browse/order-export.ts";
import { filterQueryString } from "../../core/browse/order-query.ts";
import type { NotificationState } from "../../core/browse/store.ts";
import { BULK_MAX, type BulkKind, type BulkRefusalCode, bulkOrdersAs } from "../../core/order-bulk.ts";
import { replayNotificationAs } from "../../core/order-actions.ts";
import type { Order } from "../../core/types.ts";
import { attr, CsrfInput, Notice } from "../components.tsx";
import type { AdminContext, AdminRoute } from "../context.ts";
import { seeOther } from "../http.ts";
import type { TextKey, Translate } from "../i18n/index.ts";
import { errorAnswer, fragment } from "../render.tsx";
import { TRADE_NO_PARAM, yuan } from "./order-bits.tsx";
import { listFilter } from "./orders-filter.tsx";
import { listOrders } from "./orders-list.tsx";

export interface BulkState {
  reason?: string;
  error?: string;
}

/** 送达 / 失败 N 次 / 待发送 / 无通知地址, and a resend for a notification that failed. */
export function NotifyCell(p: { order: Order; n?: NotificationState; t: Translate; csrf: string; resent?: boolean }) {
  const { n, t } = p;
  if (!n) return p.order.notifyUrl === "" ? <span class="faint" safe>{t("olist.n_none")}</span> : <span class="faint">—</span>;
  const text = n.status === "delivered" ? t("olist.n_delivered") : n.status === "failed" ? t("olist.n_given_up", { n: n.attempts })
    : n.attempts > 0 ? t("olist.n_failing", { n: n.attempts }) : t("olist.n_pending");
  const cls = n.status === "delivered" ? "tag tag-ok" : n.status === "failed" || n.attempts > 0 ? "tag tag-danger" : "tag";
  const path = `/admin/orders/${p.order.tradeNo}/resend-row`;
  return (
    <span class="notify-cell" id={`notify-${p.order.tradeNo}`}>
      <span class={cls} data-notify={n.status} safe>{text}</span>
      {p.resent ? <span class="muted" safe>{t("olist.resent")}</span> : ""}
      {!p.resent && n.status !== "delivered" && (n.status === "failed" || n.attempts > 0) ? (
        <form method="post" action={path} hx-post={path} hx-target={`#notify-${p.order.tradeNo}`} hx-swap="outerHTML" class="inline-form">
          <CsrfInput csrf={p.csrf} />
          <button class="btn btn-small" type="submit" safe>{t("olist.resend")}</button>
        </form>
      ) : ""}
    </span>
  );
}

export function TotalsSlot(p: { qs: string; t: Translate }) {
  const url = `/admin/orders/totals${p.qs ? `?${p.qs}` : ""}`;
  return (
    <p id="orders-totals" class="orders-totals" hx-get={url} hx-trigger="load" hx-swap="outerHTML">
      <a href={url} safe>{p.t("olist.totals_loading")}</a>
    </p>
  );
}

export function BulkForm(p: { ctx: AdminContext; qs: string; state?: BulkState }) {
  const { ctx } = p;
  const t = ctx.t;
  const e = p.state?.error;
  return (
    <form method="post" action={`/admin/orders/bulk${p.qs ? `?${p.qs}` : ""}`} class="card bulk-form" id="orders-bulk" data-confirm={t("olist.bulk_confirm")}>
      <h2 safe>{t("olist.bulk_heading")}</h2>
      <CsrfInput csrf={ctx.csrf} />
      <div class="field">
        <label for="f-bulk-reason" safe>{t("olist.bulk_reason")}</label>
        <input id="f-bulk-reason" name="reason" type="text" maxlength={200} value={attr(p.state?.reason ?? "")}
          aria-invalid={e ? "true" : undefined} aria-describedby={e ? "f-bulk-reason-error" : undefined} />
        {e ? <p class="field-error" id="f-bulk-reason-error" role="alert" safe>{e}</p> : ""}
      </div>
      <div class="actions">
        <button class="btn" type="submit" name="action" value="close" safe>{t("olist.bulk_close")}</button>
        <button class="btn" type="submit" name="action" value="resend" safe>{t("olist.bulk_resend")}</button>
      </div>
    </form>
  );
}

/** The outcome of a bulk action, after its redirect (?done=close&n=3&skipped=1). */
export function doneNotice(ctx: AdminContext): JSX.Element {
  const done = ctx.query.get("done");
  const int = (k: string) => (/^\d{1,6}$/.test(ctx.query.get(k) ?? "") ? Number(ctx.query.get(k)) : 0);
  if (done !== "close" && done !== "resend") return "";
  return <Notice kind="ok" id="bulk-done" text={ctx.t(done === "close" ? "olist.done_close" : "olist.done_resend", { done: int("n"), skipped: int("skipped") })} />;
}

async function totals(ctx: AdminContext): Promise<Response> {
  const { parsed, bad } = await listFilter(ctx);
  if (bad) return fragment("", 422);
  const { after: _, ...filter } = parsed.filter;
  const x = await ctx.gw.store.browse.orderTotals({ ...filter, now: ctx.gw.clock.now() });
  const text = ctx.t("olist.totals", { count: x.count, amount: yuan(x.amount), paid_count: x.paidCount, paid_amount: yuan(x.paidAmount) });
  return fragment(<p id="orders-totals" class="orders-totals" data-count={String(x.count)} safe>{text}</p>);
}

/**
 * How long the export's connection may go without a write. Bun re-arms its idle timer (10 s by
 * default) only on a write or a writable event, and Linux signals writable when a third of the
 * socket's send buffer (autotuned to 4 MB) is free: a browser reading the CSV slower than about
 * 150 KB/s went longer than that without one and was cut mid-file (a 100 MB export of a million
 * orders, read at 160 KiB/s, was cut at 27 s; bench/console-rss.ts). 255 s is Bun's longest: a reader
 * down to about 5 KB/s finishes, and a client that stops reading is still closed, its stream freed.
 */
export const EXPORT_IDLE_SECONDS = 255;

async function exportCsv(ctx: AdminContext): Promise<Response> {
  const { parsed, bad } = await listFilter(ctx);
  if (bad) return listOrders(ctx);
  ctx.idleTimeout(EXPORT_IDLE_SECONDS);
  const { after: _, ...filter } = parsed.filter;
  const now = ctx.gw.clock.now();
  const stamp = new Date(now * 1000).toISOString().replace(/\D/g, "").slice(0, 14);
  return new Response(ordersCsv(ctx.gw.store.browse, filter, { now, zone: ctx.tz }), {
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="orders-${stamp}.csv"` },
  });
}

const BULK_TEXT: Record<BulkRefusalCode, TextKey> = {
  reason_missing: "olist.e_reason_missing", reason_too_long: "olist.e_reason_too_long", none_selected: "olist.e_none_selected", too_many: "olist.e_too_many",
};

async function bulk(ctx: AdminContext): Promise<Response> {
  const action = ctx.form.get("action");
  if (action !== "close" && action !== "resend") return errorAnswer(ctx, 400, ctx.t("error.bad_input"));
  const r = await bulkOrdersAs(ctx.gw, ctx.actor, action as BulkKind, ctx.form.getAll("trade_no"), ctx.form.get("reason") ?? "");
  if (!r.ok) return listOrders(ctx, { bulk: { reason: ctx.form.get("reason") ?? "", error: ctx.t(BULK_TEXT[r.code], { n: BULK_MAX }) }, status: 422 });
  const { parsed } = await listFilter(ctx);
  const qs = filterQueryString(parsed.values, parsed.values.after);
  return seeOther(`/admin/orders?${qs ? `${qs}&` : ""}done=${action}&n=${r.value.done.length}&skipped=${r.value.skipped.length}#bulk-done`);
}

async function resendRow(ctx: AdminContext): Promise<Response> {
  const tradeNo = ctx.params.trade_no ?? "";
  if (!TRADE_NO_PARAM.test(tradeNo)) return errorAnswer(ctx, 404, ctx.t("orders.not_found"));
  const order = await ctx.gw.store.getOrder(tradeNo);
  if (!order) return errorAnswer(ctx, 404, ctx.t("orders.not_found"));
  const r = await replayNotificationAs(ctx.gw, ctx.actor, tradeNo);
  if (!ctx.htmx) return seeOther(r.ok ? `/admin/orders/${tradeNo}?done=replayed` : `/admin/orders/${tradeNo}`);
  const [n] = await ctx.gw.store.browse.notificationStates([tradeNo]);
  return fragment(<NotifyCell order={order} n={n} t={ctx.t} csrf={ctx.csrf} resent={r.ok} />, r.ok ? 200 : 422);
}

export const ORDER_LIST_ROUTES: AdminRoute[] = [
  { method: "GET", path: "/admin/orders/totals", handle: totals },
  { method: "GET", path: "/admin/orders/export.csv", handle: exportCsv },
  { method: "POST", path: "/admin/orders/bulk", handle: bulk },
  { method: "POST", path: "/admin/orders/:trade_no/resend-row", handle: resendRow },
];
