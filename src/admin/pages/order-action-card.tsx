/** @jsxImportSource @kitajs/html */
// The order page's actions, each shown only when it applies to the order as it is now: send the
// notification again, close a pending order, confirm the payment by hand (补单, with a required
// reason). Each is a plain POST form that htmx upgrades: it swaps the whole order view (fields,
// actions, timeline) with the result, a refusal inline, nothing changed. Destructive ones ask first.
import type { Children } from "@kitajs/html";
import type { OrderDetail } from "../../core/browse/order-detail.ts";
import { REASON_MAX } from "../../core/manual-payment.ts";
import { attr, CsrfInput, Notice } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import type { TextKey } from "../i18n/index.ts";
import { TimeMs } from "./order-bits.tsx";

/** What the last action left to say: a success, a refusal, or the reason field's problem. */
export interface ActionState {
  done?: string;
  refusal?: string;
  reasonError?: string;
  /** The reason typed, shown again after a refusal. */
  reason?: string;
}

function ActionForm(p: { ctx: AdminContext; tradeNo: string; action: string; confirm: string; children: Children }) {
  const path = `/admin/orders/${p.tradeNo}/${p.action}`;
  return (
    <form method="post" action={path} hx-post={path} hx-target="#order-view" hx-swap="outerHTML" hx-confirm={attr(p.confirm)} id={`order-${p.action}`}>
      <CsrfInput csrf={p.ctx.csrf} />
      {p.children}
    </form>
  );
}

/** The outbox row as it really is: waiting for its first attempt, failing and retrying, given up, delivered. */
function notifyState(t: AdminContext["t"], n: NonNullable<OrderDetail["notification"]>): string {
  if (n.status === "delivered") return t("orders.notify_delivered", { n: n.attempts });
  if (n.status === "failed") return t("orders.notify_given_up", { n: n.attempts });
  return n.attempts === 0 ? t("orders.nstatus_pending") : t("orders.notify_failing", { n: n.attempts });
}

function NotificationAction(p: { ctx: AdminContext; d: OrderDetail }) {
  const { ctx, d } = p;
  const t = ctx.t;
  const n = d.notification;
  return (
    <div class="action" id="action-notify">
      <h3 safe>{t("orders.notify")}</h3>
      {n ? (
        <div>
          <p class="hint" id="notify-state">
            <span safe>{notifyState(t, n)}</span>
            {n.status === "pending" ? <span> · <span safe>{t(n.attempts > 0 ? "orders.notify_retry_at" : "orders.notify_next")}</span> <TimeMs ms={n.nextAttemptAt} tz={ctx.tz} /></span> : ""}
          </p>
          <ActionForm ctx={ctx} tradeNo={d.order.tradeNo} action="replay" confirm={t("orders.replay_confirm")}>
            <button class="btn" type="submit" safe>{t("orders.replay")}</button>
          </ActionForm>
        </div>
      ) : (
        <p class="hint" id="notify-state" safe>{t(d.order.notifyUrl === "" ? "orders.notify_none" : d.order.paidAt === null ? "orders.notify_after_pay" : "orders.notify_no_row")}</p>
      )}
    </div>
  );
}

export function ActionsCard(p: { ctx: AdminContext; d: OrderDetail; state: ActionState }) {
  const { ctx, d, state } = p;
  const t = ctx.t;
  const no = d.order.tradeNo;
  return (
    <div class="card" id="order-actions">
      <h2 safe>{t("orders.actions")}</h2>
      {state.done ? <Notice kind="ok" text={state.done} id="action-done" /> : ""}
      {state.refusal ? <Notice kind="error" text={state.refusal} id="action-refused" /> : ""}
      <NotificationAction ctx={ctx} d={d} />
      {d.can.close ? (
        <div class="action" id="action-close">
          <h3 safe>{t("orders.close")}</h3>
          <p class="hint" safe>{t("orders.close_hint")}</p>
          <ActionForm ctx={ctx} tradeNo={no} action="close" confirm={t("orders.close_confirm")}>
            <button class="btn btn-danger" type="submit" safe>{t("orders.close")}</button>
          </ActionForm>
        </div>
      ) : ""}
      {d.can.confirm ? (
        <div class="action" id="action-confirm">
          <h3 safe>{t("orders.confirm")}</h3>
          <p class="hint" safe>{t("orders.confirm_hint")}</p>
          <ActionForm ctx={ctx} tradeNo={no} action="confirm" confirm={t("orders.confirm_confirm")}>
            <div class="field">
              <label for="f-reason" safe>{t("orders.confirm_reason")}</label>
              <textarea id="f-reason" name="reason" required maxlength={REASON_MAX} placeholder={attr(t("orders.confirm_reason_placeholder"))}
                aria-invalid={state.reasonError ? "true" : undefined} aria-describedby={state.reasonError ? "f-reason-error" : undefined} safe>{state.reason ?? ""}</textarea>
              {state.reasonError ? <p class="field-error" id="f-reason-error" safe>{state.reasonError}</p> : ""}
            </div>
            <button class="btn btn-primary" type="submit" safe>{t("orders.confirm_submit")}</button>
          </ActionForm>
        </div>
      ) : ""}
      {!d.notification && !d.can.close && !d.can.confirm ? <p class="muted" safe>{t("orders.no_actions")}</p> : ""}
    </div>
  );
}
