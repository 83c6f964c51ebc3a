// epay V1 (彩虹易支付 MD5) codec: signing, status values, the order fields of api.php and the
// notification. Pure functions; the route files do the HTTP.
import type { FamilyNotifier } from "../../core/families.ts";
import { formatDateTime } from "../../core/ids.ts";
import { formatYuan } from "../../core/money.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { type Order, OrderStatus } from "../../core/types.ts";
import { md5Sign, md5Verify, nonEmpty, type Signable } from "../signing.ts";

export const V1_EXCLUDED = ["sign", "sign_type"] as const;

export const signV1 = (params: Signable, secret: string) => md5Sign(params, secret, V1_EXCLUDED);
/** Requests: the spec's rule, or empty values kept as `k=` (SSPanel's mapi.php; see md5Verify). */
export const verifyV1 = (params: Signable, secret: string) => md5Verify(params, secret, "sign", V1_EXCLUDED, { alsoKeptEmpty: true });

/** mapi.php and api.php failures: `code` other than 1 with `msg`. */
export const v1Fail = (msg: string) => ({ code: -1, msg });

export type StatusStyle = "spec" | "legacy";

/**
 * The `status` of V1 api.php and the V2 query. `legacy` answers as 彩虹易支付 does (1 paid, 0
 * anything else), because its SDKs read `status == 1` as paid; `spec` uses the spec's integers.
 */
export function epayStatus(order: Order, now: number, style: StatusStyle): number {
  const s = effectiveStatus(order, now);
  if (style === "legacy") return s === OrderStatus.Paid ? 1 : 0;
  return s;
}

export const statusStyle = (value: string): StatusStyle => (value === "legacy" ? "legacy" : "spec");

/** One order as api.php act=order and act=orders describe it. */
export function apiOrderFields(order: Order, now: number, style: StatusStyle) {
  return {
    trade_no: order.tradeNo,
    out_trade_no: order.outTradeNo,
    api_trade_no: order.apiTradeNo,
    type: order.payType,
    pid: order.pid,
    addtime: formatDateTime(order.createdAt),
    endtime: order.paidAt === null ? "" : formatDateTime(order.paidAt),
    name: order.name,
    money: formatYuan(order.amount),
    trade_amount: order.tradeAmount === null ? "" : formatYuan(order.tradeAmount),
    status: epayStatus(order, now, style),
    param: order.param,
    buyer: order.buyer,
  };
}

/**
 * The unsigned V1 notification and return fields; `money` is the amount the merchant asked for.
 * An empty field (`param` when the create gave none) is left out, as 彩虹易支付 sends it: panel
 * plugins verify with md5(urldecode(http_build_query($_GET)) . key) over every field received,
 * where `param=` would become part of the signed text.
 */
export function v1PaidFields(order: Order): Record<string, string> {
  return nonEmpty({
    pid: String(order.pid),
    trade_no: order.tradeNo,
    out_trade_no: order.outTradeNo,
    type: order.payType,
    name: order.name,
    money: formatYuan(order.amount),
    trade_status: "TRADE_SUCCESS",
    param: order.param,
  });
}

/** Outbox rows written before empty fields were left out still hold `param: ""`: dropped here too. */
function signed(fields: Record<string, string>, secret: string) {
  const sent = nonEmpty(fields);
  return { ...sent, sign: signV1(sent, secret), sign_type: "MD5" };
}

/** Plain text `success`; whitespace and a UTF-8 BOM (common in PHP output) are tolerated. */
export function isPlainSuccess(body: string): boolean {
  return body.replace(/^\uFEFF/, "").trim() === "success";
}

export const epayV1Notifier: FamilyNotifier = {
  family: "epay-v1",
  notificationParams: v1PaidFields,
  method: () => "GET",
  sign: (params, ctx) => signed(params, ctx.merchant.secret),
  isAcknowledged: isPlainSuccess,
  timeoutMs: 30_000,
  returnParams: (order, ctx) => signed(v1PaidFields(order), ctx.merchant.secret),
};
