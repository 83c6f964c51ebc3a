/** @jsxImportSource @kitajs/html */
// 测试支付 on a receiving account (core/test-pay.ts, shared with `xpay channel test-pay`): a form
// for the amount in yuan, then the test order's page: the amount to pay, a link to its cashier
// (/pay/{trade_no}, a new tab the operator scans with a phone) and its status, polled by htmx
// until it is paid or ended, so the operator watches the payment match end to end. The status
// page only shows orders that are this account's test orders (xpay-test- prefix, pinned here).
import { createTestPayment, TEST_PAY_DEFAULT, TEST_PAY_PREFIX, type TestPayProblem } from "../../core/test-pay.ts";
import { formatYuan } from "../../core/money.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { type ChannelAccount, type Order, OrderStatus } from "../../core/types.ts";
import { CsrfInput, Field, Notice, PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminRoute } from "../context.ts";
import type { TextKey } from "../i18n/index.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, fragment, page } from "../render.tsx";
import { StatusBadge } from "./order-bits.tsx";

const POLL_SECONDS = 3;
const idOf = (ctx: AdminContext) => (/^\d{1,9}$/.test(ctx.params.id ?? "") ? Number(ctx.params.id) : 0);
const base = (id: number) => `/admin/accounts/${id}/test-pay`;

const PROBLEM: Record<Exclude<TestPayProblem, "not_found" | "failed">, TextKey> = {
  amount: "testpay.bad_amount", disabled: "testpay.disabled", no_merchant: "testpay.no_merchant",
};

async function merchantLabel(ctx: AdminContext, a: ChannelAccount): Promise<string> {
  const ms = (await ctx.gw.store.listMerchants()).filter((m) => m.active && (a.pid === 0 || m.pid === a.pid)).sort((x, y) => x.pid - y.pid);
  return ms[0] ? `${ms[0].pid} · ${ms[0].name}` : "—";
}

async function formPage(ctx: AdminContext, a: ChannelAccount, o: { amount?: string; error?: string; status?: number } = {}): Promise<Response> {
  const t = ctx.t;
  return page(ctx, {
    title: t("testpay.title", { id: a.id }),
    status: o.status,
    styles: ["manage.css"],
    children: (
      <section>
        <p class="back"><a href={`/admin/accounts/${a.id}`} safe>{`← ${a.name}`}</a></p>
        <PageHead title={`${t("testpay.title", { id: a.id })} · ${a.name}`} lead={t("testpay.lead")} />
        <form method="post" action={base(a.id)} class="card manage-form" id="test-pay-form">
          <CsrfInput csrf={ctx.csrf} />
          <Notice kind="info" text={t("testpay.safe", { merchant: await merchantLabel(ctx, a) })} />
          <Field label={t("testpay.amount")} name="amount" value={o.amount ?? TEST_PAY_DEFAULT} error={o.error} hint={t("testpay.amount_hint")} required maxlength={12} />
          <button class="btn btn-primary" type="submit" id="test-pay-create" safe>{t("testpay.create")}</button>
        </form>
      </section>
    ),
  });
}

/** The status box: polls itself while the order is pending, stops once it is paid or ended. */
function StatusBox(p: { ctx: AdminContext; a: ChannelAccount; order: Order }) {
  const { ctx, a, order } = p;
  const t = ctx.t;
  const now = ctx.gw.clock.now();
  const s = effectiveStatus(order, now);
  const pending = s === OrderStatus.Pending;
  const url = `${base(a.id)}/${encodeURIComponent(order.tradeNo)}?box=1`;
  return (
    <div id="test-pay-status" class="card" data-status={String(s)} hx-get={pending ? url : undefined} hx-trigger={pending ? `every ${POLL_SECONDS}s` : undefined} hx-swap="outerHTML">
      <p><StatusBadge order={order} now={now} t={t} /></p>
      {s === OrderStatus.Paid ? (
        <p class="notice notice-ok" id="test-pay-paid" role="status">
          <span safe>{t("testpay.paid", { time: "" })}</span><Time at={order.paidAt ?? 0} tz={ctx.tz} />
        </p>
      ) : pending ? (
        <p class="muted" aria-live="polite" safe>{t("testpay.waiting")}</p>
      ) : (
        <Notice kind="warn" text={t("testpay.ended", { status: t(`orders.status_${s}` as TextKey) })} />
      )}
    </div>
  );
}

async function orderPage(ctx: AdminContext, a: ChannelAccount, order: Order): Promise<Response> {
  const t = ctx.t;
  const cashier = `/pay/${encodeURIComponent(order.tradeNo)}`;
  return page(ctx, {
    title: t("testpay.order_title", { trade_no: order.tradeNo }),
    styles: ["manage.css"],
    children: (
      <section>
        <p class="back"><a href={`/admin/accounts/${a.id}`} safe>{`← ${a.name}`}</a></p>
        <PageHead title={t("testpay.order_title", { trade_no: order.tradeNo })} />
        <div class="card" id="test-pay-order">
          <p class="muted" safe>{t("testpay.pay_amount")}</p>
          <p class="test-pay-amount" id="test-pay-amount" safe>{`¥${formatYuan(order.tradeAmount ?? order.amount)}`}</p>
          <p class="small muted">
            <span safe>{t("testpay.expires")}</span> <Time at={order.expireTime} tz={ctx.tz} />
          </p>
          <p safe>{t("testpay.steps", { n: POLL_SECONDS })}</p>
          <div class="actions">
            <a class="btn btn-primary" href={cashier} target="_blank" rel="noopener" id="test-pay-cashier" safe>{t("testpay.open_cashier")}</a>
            <a class="btn" href={`/admin/orders/${encodeURIComponent(order.tradeNo)}`} safe>{t("testpay.view_order")}</a>
            <a class="btn" href={base(a.id)} safe>{t("testpay.again")}</a>
          </div>
        </div>
        <StatusBox ctx={ctx} a={a} order={order} />
      </section>
    ),
  });
}

async function withAccount(ctx: AdminContext, then: (a: ChannelAccount) => Promise<Response>): Promise<Response> {
  const a = await ctx.gw.store.getChannel(idOf(ctx));
  return a ? then(a) : errorAnswer(ctx, 404, ctx.t("accounts.not_found"));
}

async function create(ctx: AdminContext, a: ChannelAccount): Promise<Response> {
  const amount = ctx.form.get("amount") ?? "";
  const r = await createTestPayment(ctx.gw, ctx.actor, a.id, amount);
  if (r.ok) return seeOther(`${base(a.id)}/${encodeURIComponent(r.order.tradeNo)}`);
  if (r.problem === "not_found") return errorAnswer(ctx, 404, ctx.t("accounts.not_found"));
  const error = r.problem === "failed" ? ctx.t("testpay.failed", { reason: r.reason }) : ctx.t(PROBLEM[r.problem]);
  return formPage(ctx, a, { amount, error, status: 422 });
}

async function show(ctx: AdminContext, a: ChannelAccount): Promise<Response> {
  const order = await ctx.gw.store.getOrder(ctx.params.trade_no ?? "");
  if (!order || order.accountId !== a.id || !order.outTradeNo.startsWith(TEST_PAY_PREFIX)) return errorAnswer(ctx, 404, ctx.t("testpay.not_test"));
  if (ctx.query.get("box") === "1") return fragment(<StatusBox ctx={ctx} a={a} order={order} />);
  return orderPage(ctx, a, order);
}

export const testPayRoutes: AdminRoute[] = [
  { method: "GET", path: "/admin/accounts/:id/test-pay", handle: (ctx) => withAccount(ctx, (a) => formPage(ctx, a)) },
  { method: "POST", path: "/admin/accounts/:id/test-pay", handle: (ctx) => withAccount(ctx, (a) => create(ctx, a)) },
  { method: "GET", path: "/admin/accounts/:id/test-pay/:trade_no", handle: (ctx) => withAccount(ctx, (a) => show(ctx, a)) },
];
