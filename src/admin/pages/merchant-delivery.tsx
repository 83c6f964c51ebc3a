/** @jsxImportSource @kitajs/html */
// A merchant's notification delivery: the cell of the merchants list, the box of its page with
// "resend every failed notification" (POST /admin/merchants/:pid/resend, core resendFailingAs: a
// reason, audited with the count), and the outcome that updates itself without a reload (GET
// :pid/delivery polls while notifications of the resend still wait). The outcome counts deliveries
// of the merchant since the resend (the row's running count now minus then), so it is exact for
// the resent rows plus any new order paid meanwhile, and costs two small reads per poll.
import { deliveryState, merchantDelivery, resendFailingAs } from "../../core/notify/health.ts";
import type { MerchantDelivery } from "../../core/store.ts";
import { attr, CsrfInput, Notice, Time } from "../components.tsx";
import type { AdminContext, AdminRoute } from "../context.ts";
import { seeOther } from "../http.ts";
import type { Translate } from "../i18n/index.ts";
import { errorAnswer, fragment } from "../render.tsx";
import { sendErrorText } from "../send-error.ts";

/** How long the outcome keeps polling after a resend (a tab left open must not poll forever). */
const WATCH_MS = 10 * 60_000;
const POLL_SECONDS = 2;
const sec = (ms: number | null) => (ms === null ? 0 : Math.floor(ms / 1000));
const pidOf = (ctx: AdminContext) => (/^\d{1,9}$/.test(ctx.params.pid ?? "") ? Number(ctx.params.pid) : 0);
const intParam = (v: string | null) => (v !== null && /^\d{1,15}$/.test(v) ? Number(v) : null);

function StateTag(p: { d: MerchantDelivery; t: Translate }) {
  const s = deliveryState(p.d);
  const cls = s === "ok" ? "tag tag-ok" : s === "failing" ? "tag tag-danger" : "tag";
  return <span class={cls} data-delivery={s} safe>{p.t(`delivery.state_${s}`)}</span>;
}

/** The merchants list's cell: state, last success, failing since with the last error, the queue. */
export function DeliveryCell(p: { d: MerchantDelivery; t: Translate; tz: string }) {
  const { d, t } = p;
  const state = deliveryState(d);
  return (
    <div class="delivery-cell">
      <StateTag d={d} t={t} />
      {d.lastSuccessAt !== null ? (
        <span class="cell-sub"><span safe>{t("delivery.last_success")}</span> <Time at={sec(d.lastSuccessAt)} tz={p.tz} /></span>
      ) : state === "failing" ? <span class="cell-sub" safe>{t("delivery.never")}</span> : ""}
      {d.failingSince !== null ? (
        <span class="cell-sub delivery-failing">
          <span safe>{t("delivery.failing_since")}</span> <Time at={sec(d.failingSince)} tz={p.tz} /> · <span title={attr(d.lastError ?? "")} data-error safe>{sendErrorText(t, d.lastError ?? "")}</span>
        </span>
      ) : ""}
      {d.pending + d.failing > 0 ? <span class="cell-sub" safe>{t("delivery.queue", { pending: d.pending, failing: d.failing })}</span> : ""}
      {d.givenUp > 0 ? <span class="cell-sub delivery-failing" safe>{t("delivery.given_up", { n: d.givenUp })}</span> : ""}
    </div>
  );
}

export interface ResendWatch {
  requeued: number;
  /** The merchant's delivered count when the resend was made. */
  base: number;
  /** When (ms), to stop polling after WATCH_MS. */
  at: number;
}

const watching = (ctx: AdminContext, d: MerchantDelivery, w?: ResendWatch) => !!w && d.pending > 0 && ctx.gw.clock.nowMs() - w.at < WATCH_MS;

/** "已重新排队 28 条，3 条已送达，25 条待发送". */
function ResendProgress(p: { ctx: AdminContext; d: MerchantDelivery; w: ResendWatch }) {
  const { ctx, d, w } = p;
  const delivered = Math.max(0, d.delivered - w.base);
  const waiting = watching(ctx, d, w);
  const text = waiting
    ? ctx.t("delivery.progress", { n: w.requeued, delivered, pending: d.pending })
    : ctx.t("delivery.progress_done", { n: w.requeued, delivered });
  return <p id="resend-progress" class={`notice ${waiting ? "notice-info" : "notice-ok"}`} role="status" aria-live="polite" safe>{text}</p>;
}

/**
 * The box polls itself (GET :pid/delivery) while a resend's notifications wait, so its state and
 * counts follow; meanwhile it offers no form (a poll would wipe a reason being typed).
 */
export function DeliveryBox(p: { ctx: AdminContext; d: MerchantDelivery; watch?: ResendWatch; reason?: string; reasonError?: string; refusal?: string }) {
  const { ctx, d, watch: w } = p;
  const t = ctx.t;
  const path = `/admin/merchants/${d.pid}/resend`;
  const waiting = watching(ctx, d, w);
  const next = w ? `/admin/merchants/${d.pid}/delivery?requeued=${w.requeued}&base=${w.base}&at=${w.at}` : "";
  return (
    <section class="card" id="merchant-delivery" hx-get={waiting ? next : undefined} hx-trigger={waiting ? `every ${POLL_SECONDS}s` : undefined} hx-swap="outerHTML">
      <h2 safe>{t("delivery.heading")}</h2>
      <DeliveryCell d={d} t={t} tz={ctx.tz} />
      {w ? <ResendProgress ctx={ctx} d={d} w={w} /> : ""}
      {p.refusal ? <Notice kind="error" text={p.refusal} id="resend-refusal" /> : ""}
      {d.failing > 0 && !waiting ? (
        <form method="post" action={path} hx-post={path} hx-target="#merchant-delivery" hx-swap="outerHTML" hx-confirm={attr(t("delivery.resend_confirm"))} id="resend-form">
          <p class="muted" safe>{t("delivery.hint")}</p>
          <CsrfInput csrf={ctx.csrf} />
          <div class="field">
            <label for="f-resend-reason" safe>{t("delivery.reason")}</label>
            <input id="f-resend-reason" name="reason" type="text" required maxlength={200} value={attr(p.reason ?? "")} placeholder={attr(t("delivery.reason_placeholder"))}
              aria-invalid={p.reasonError ? "true" : undefined} aria-describedby={p.reasonError ? "f-resend-reason-error" : undefined} />
            {p.reasonError ? <p class="field-error" id="f-resend-reason-error" safe>{p.reasonError}</p> : ""}
          </div>
          <button class="btn btn-primary" type="submit" safe>{t("delivery.resend", { n: d.failing })}</button>
        </form>
      ) : ""}
    </section>
  );
}

/** The page's watch from ?requeued=&base=&at= (a resend without script lands there). */
export function watchFrom(q: URLSearchParams): ResendWatch | undefined {
  const [requeued, base, at] = [intParam(q.get("requeued")), intParam(q.get("base")), intParam(q.get("at"))];
  return requeued !== null && base !== null && at !== null ? { requeued, base, at } : undefined;
}

/** The merchant page with this box in place of its own (a refusal of a plain form post). */
type PageWithBox = (ctx: AdminContext, box: JSX.Element, status: number) => Promise<Response>;

async function resend(ctx: AdminContext, pageWith: PageWithBox): Promise<Response> {
  const pid = pidOf(ctx);
  const reason = ctx.form.get("reason") ?? "";
  const r = await resendFailingAs(ctx.gw, ctx.actor, pid, reason);
  if (!r.ok && r.code === "no_merchant") return errorAnswer(ctx, 404, ctx.t("merchants.not_found"));
  const d = (await merchantDelivery(ctx.gw, pid))!;
  if (!r.ok) {
    const box = r.code === "none_failing"
      ? <DeliveryBox ctx={ctx} d={d} refusal={ctx.t("delivery.none_failing")} />
      : <DeliveryBox ctx={ctx} d={d} reason={reason} reasonError={ctx.t(r.code === "reason_missing" ? "delivery.e_reason_missing" : "delivery.e_reason_too_long")} />;
    return ctx.htmx ? fragment(box, 422) : pageWith(ctx, box, 422);
  }
  const watch = { requeued: r.requeued, base: r.before.delivered, at: ctx.gw.clock.nowMs() };
  if (ctx.htmx) return fragment(<DeliveryBox ctx={ctx} d={d} watch={watch} />);
  return seeOther(`/admin/merchants/${pid}?requeued=${watch.requeued}&base=${watch.base}&at=${watch.at}#merchant-delivery`);
}

async function poll(ctx: AdminContext): Promise<Response> {
  const d = await merchantDelivery(ctx.gw, pidOf(ctx));
  if (!d) return errorAnswer(ctx, 404, ctx.t("merchants.not_found"));
  return fragment(<DeliveryBox ctx={ctx} d={d} watch={watchFrom(ctx.query)} />);
}

export function deliveryRoutes(pageWith: PageWithBox): AdminRoute[] {
  return [
    { method: "GET", path: "/admin/merchants/:pid/delivery", handle: poll },
    { method: "POST", path: "/admin/merchants/:pid/resend", handle: (ctx) => resend(ctx, pageWith) },
  ];
}
