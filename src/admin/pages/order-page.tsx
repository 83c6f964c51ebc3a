/** @jsxImportSource @kitajs/html */
// GET /admin/orders/:trade_no: every field of the order, the actions that apply now and its
// timeline (created, allocated, each report, paid / closed / timed out, the notification with each
// attempt, what operators did), all read by core/browse/order-detail.ts. The same view answers the
// actions (order-actions.ts): a whole page, or for htmx just #order-view.
import type { Children } from "@kitajs/html";
import { type OrderDetail, orderDetail } from "../../core/browse/order-detail.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { Time } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import type { TextKey } from "../i18n/index.ts";
import { errorAnswer, fragment, page } from "../render.tsx";
import { type ActionState, ActionsCard } from "./order-action-card.tsx";
import { payTypeName, StatusBadge, TRADE_NO_PARAM, yuan } from "./order-bits.tsx";
import { Timeline } from "./order-timeline.tsx";

/** A field's value; empty ones show a dash so the list keeps its rhythm. */
function Row(p: { label: string; value?: string | number | null; mono?: boolean; num?: boolean }) {
  const text = p.value === null || p.value === undefined || p.value === "" ? "—" : String(p.value);
  return (
    <>
      <dt safe>{p.label}</dt>
      <dd class={p.mono ? "mono" : p.num ? "num" : undefined} safe>{text}</dd>
    </>
  );
}

/** A field shown as markup (a badge, a time). */
function RowOf(p: { label: string; children: Children }) {
  return (
    <>
      <dt safe>{p.label}</dt>
      <dd>{p.children}</dd>
    </>
  );
}

function Fields(p: { ctx: AdminContext; d: OrderDetail }) {
  const { ctx, d } = p;
  const { order: o } = d;
  const t = ctx.t;
  const now = ctx.gw.clock.now();
  const k = (key: string) => t(`orders.k_${key}` as TextKey);
  return (
    <div class="card" id="order-fields">
      <h2 safe>{t("orders.fields")}</h2>
      <dl class="kv kv-wide">
        <Row label={k("trade_no")} value={o.tradeNo} mono />
        <Row label={k("out_trade_no")} value={o.outTradeNo} mono />
        <Row label={k("merchant")} value={`${o.pid} ${d.merchant?.name ?? t("orders.gone")}`} />
        <Row label={k("name")} value={o.name} />
        <RowOf label={k("status")}><StatusBadge order={o} now={now} t={t} /></RowOf>
        <Row label={k("amount")} value={yuan(o.amount)} num />
        <Row label={k("trade_amount")} value={yuan(o.tradeAmount)} num />
        <Row label={k("pay_type")} value={payTypeName(t, o.payType)} />
        <Row label={k("account")} value={o.accountId === null ? null : `#${o.accountId} ${d.account?.name ?? t("orders.gone")}`} />
        <Row label={k("family")} value={o.family} />
        <RowOf label={k("created")}><Time at={o.createdAt} tz={ctx.tz} /></RowOf>
        <RowOf label={k("expire")}><Time at={o.expireTime} tz={ctx.tz} /></RowOf>
        {o.paidAt !== null ? <RowOf label={k("paid")}><Time at={o.paidAt} tz={ctx.tz} /></RowOf> : ""}
        {o.closedAt !== null ? <RowOf label={k("closed")}><Time at={o.closedAt} tz={ctx.tz} /></RowOf> : ""}
        {o.failReason ? <Row label={k("fail_reason")} value={o.failReason} /> : ""}
        <Row label={k("notify_url")} value={o.notifyUrl} mono />
        <Row label={k("return_url")} value={o.returnUrl} mono />
        <Row label={k("param")} value={o.param} />
        <Row label={k("clientip")} value={o.clientip} mono />
        <Row label={k("device")} value={o.device} />
        {o.apiTradeNo ? <Row label={k("api_trade_no")} value={o.apiTradeNo} mono /> : ""}
        {o.buyer ? <Row label={k("buyer")} value={o.buyer} /> : ""}
      </dl>
    </div>
  );
}

export function OrderView(p: { ctx: AdminContext; d: OrderDetail; state: ActionState }) {
  const { ctx, d } = p;
  const t = ctx.t;
  return (
    <div id="order-view" data-status={String(effectiveStatus(d.order, ctx.gw.clock.now()))}>
      <div class="page-head detail-head">
        <h1 safe>{t("orders.detail_title", { trade_no: d.order.tradeNo })}</h1>
        <StatusBadge order={d.order} now={ctx.gw.clock.now()} t={t} />
      </div>
      <Fields ctx={ctx} d={d} />
      <div class="order-grid">
        <ActionsCard ctx={ctx} d={d} state={p.state} />
        <div class="card" id="order-timeline">
          <h2 safe>{t("orders.timeline")}</h2>
          <Timeline events={d.timeline} t={t} tz={ctx.tz} />
        </div>
      </div>
    </div>
  );
}

/** The order's page (or, for htmx, its view) after reading it anew; 404 when there is no such order. */
export async function answerOrder(ctx: AdminContext, tradeNo: string, state: ActionState = {}, status = 200): Promise<Response> {
  const d = TRADE_NO_PARAM.test(tradeNo) ? await orderDetail(ctx.gw, tradeNo) : null;
  if (!d) return errorAnswer(ctx, 404, ctx.t("orders.not_found"));
  if (ctx.htmx) return fragment(<OrderView ctx={ctx} d={d} state={state} />, status);
  const t = ctx.t;
  return page(ctx, {
    title: t("orders.detail_title", { trade_no: tradeNo }),
    status,
    styles: ["orders.css"],
    children: (
      <section>
        <a class="back" href="/admin/orders" safe>{t("orders.back")}</a>
        <OrderView ctx={ctx} d={d} state={state} />
      </section>
    ),
  });
}

/** After a plain (script-less) action the browser comes back here with ?done=<action>. */
const DONE: Record<string, TextKey> = { replayed: "orders.done_replayed", closed: "orders.done_closed", confirmed: "orders.done_confirmed" };

export function showOrder(ctx: AdminContext): Promise<Response> {
  const word = ctx.query.get("done") ?? "";
  const done = Object.hasOwn(DONE, word) ? DONE[word] : undefined;
  return answerOrder(ctx, ctx.params.trade_no ?? "", done ? { done: ctx.t(done) } : {});
}
