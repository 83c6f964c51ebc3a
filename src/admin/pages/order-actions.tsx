/** @jsxImportSource @kitajs/html */
// POST /admin/orders/:trade_no/{replay,close,confirm}: the order page's actions, each one call to
// the audited core function the CLI uses (core/order-actions.ts) as the logged-in operator. A
// success answers the refreshed view (htmx) or goes back to the page (303); a refusal answers the
// view with the reason inline, status 422, nothing changed; an unknown order is a 404.
import { type ActionResult, closeOrderAs, confirmByHandAs, replayNotificationAs } from "../../core/order-actions.ts";
import type { AdminContext, AdminRoute } from "../context.ts";
import { seeOther } from "../http.ts";
import type { TextKey } from "../i18n/index.ts";
import { errorAnswer } from "../render.tsx";
import { refusalText, TRADE_NO_PARAM } from "./order-bits.tsx";
import { answerOrder } from "./order-page.tsx";

interface Action {
  path: string;
  run: (ctx: AdminContext, tradeNo: string) => Promise<ActionResult<unknown>>;
  /** The word in ?done= after a plain POST, and the text shown after an htmx one. */
  done: string;
  text: TextKey;
}

async function answer(ctx: AdminContext, a: Action): Promise<Response> {
  const tradeNo = ctx.params.trade_no ?? "";
  if (!TRADE_NO_PARAM.test(tradeNo)) return errorAnswer(ctx, 404, ctx.t("orders.not_found"));
  const r = await a.run(ctx, tradeNo);
  if (r.ok) return ctx.htmx ? answerOrder(ctx, tradeNo, { done: ctx.t(a.text) }) : seeOther(`/admin/orders/${tradeNo}?done=${a.done}`);
  const { code } = r.refusal;
  if (code === "no_order") return errorAnswer(ctx, 404, ctx.t("orders.not_found"));
  const reason = ctx.form.get("reason") ?? "";
  const reasonProblem = code === "reason_missing" || code === "reason_too_long";
  return answerOrder(ctx, tradeNo, reasonProblem ? { reasonError: refusalText(ctx.t, code), reason } : { refusal: refusalText(ctx.t, code), reason }, 422);
}

const ACTIONS: Action[] = [
  { path: "replay", run: (ctx, no) => replayNotificationAs(ctx.gw, ctx.actor, no), done: "replayed", text: "orders.done_replayed" },
  { path: "close", run: (ctx, no) => closeOrderAs(ctx.gw, ctx.actor, no), done: "closed", text: "orders.done_closed" },
  { path: "confirm", run: (ctx, no) => confirmByHandAs(ctx.gw, ctx.actor, no, ctx.form.get("reason") ?? ""), done: "confirmed", text: "orders.done_confirmed" },
];

export const ORDER_ACTION_ROUTES: AdminRoute[] = ACTIONS.map((a) => ({ method: "POST", path: `/admin/orders/:trade_no/${a.path}`, handle: (ctx) => answer(ctx, a) }));
