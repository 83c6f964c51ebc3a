// Hash protocol (虎皮椒-style) codec: the `hash` signature, error codes, pay type of a create,
// query and notification fields. Pure functions; the route files do the HTTP.
import { randomBytes } from "node:crypto";
import type { FamilyNotifier } from "../../core/families.ts";
import { formatYuan } from "../../core/money.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { type Order, OrderStatus } from "../../core/types.ts";
import { md5Sign, md5Verify, type Signable } from "../signing.ts";

export const HASH_EXCLUDED = ["hash"] as const;

export const signHash = (params: Signable, secret: string) => md5Sign(params, secret, HASH_EXCLUDED);
export const verifyHash = (params: Signable, secret: string) => md5Verify(params, secret, "hash", HASH_EXCLUDED);

/** `errcode` values (strings, as the spec types them); 402 is the spec's failed verification. */
export const ErrCode = { Ok: "0", BadRequest: "400", BadHash: "402", Forbidden: "403", NotFound: "404", Conflict: "409", Failed: "422", TooMany: "429", Internal: "500" } as const;

export type Fields = Record<string, string>;

/**
 * A response with its `hash`. Clients recompute it over every other top-level field, so values
 * stay flat strings. With no merchant secret (unknown appid) there is nothing to sign with and
 * `hash` is empty.
 */
export function withHash(fields: Fields, secret: string | null): Fields {
  return { ...fields, hash: secret === null ? "" : signHash(fields, secret) };
}

export const hashFail = (errcode: string, errmsg: string, secret: string | null) => withHash({ errcode, errmsg }, secret);

/**
 * The pay type of a create: the optional signed `payment` (the vendor demo sends `wechat`), else
 * `type` WAP/JSAPI (WeChat H5 / mini-program), else '' and the payer picks on the cashier page.
 */
export function hashPayType(p: { payment?: string; type?: string }): string {
  const payment = (p.payment ?? "").toLowerCase();
  if (payment === "wechat" || payment === "wxpay") return "wxpay";
  if (payment !== "") return payment;
  if (p.type === "WAP" || p.type === "JSAPI") return "wxpay";
  return "";
}

/** Limits the schema cannot express: lengths in characters (not UTF-16 units) and conditional fields. */
export function hashFieldProblem(p: Record<string, string | undefined>): string | null {
  if (p.version !== "1.1") return "version must be 1.1";
  if ([...(p.title ?? "")].length > 128) return "title must be at most 128 characters";
  if ([...(p.wap_name ?? "")].length > 32) return "wap_name must be at most 32 characters";
  if ((p.notify_url ?? "").includes("&")) return "notify_url must not contain &";
  if (p.type === "WAP" && (!p.wap_url || !p.wap_name)) return "type WAP (H5) requires wap_url and wap_name";
  if (p.type === "JSAPI" && !p.wap_url) return "type JSAPI requires wap_url";
  return null;
}

/** The image URL of a QR code served by xpay's /qrcode endpoint. */
export { qrImageUrl } from "../links.ts";

/** OD paid, WP waiting, CD closed, timed out or failed. */
export function hashStatus(order: Order, now: number): "OD" | "WP" | "CD" {
  const s = effectiveStatus(order, now);
  return s === OrderStatus.Paid ? "OD" : s === OrderStatus.Pending ? "WP" : "CD";
}

export function queryData(order: Order, now: number): Fields {
  return {
    status: hashStatus(order, now),
    open_order_id: order.tradeNo,
    out_trade_order: order.outTradeNo,
    transaction_id: order.apiTradeNo || order.tradeNo,
    total_fee: formatYuan(order.amount),
    order_title: order.name,
    payment: order.payType,
    paid_date: order.paidAt === null ? "" : String(order.paidAt),
  };
}

/** The notification (and return) fields: `plugins` and `attach` only when the create gave them. */
export function hashPaidFields(order: Order): Fields {
  const fields: Fields = {
    trade_order_id: order.outTradeNo,
    total_fee: formatYuan(order.amount),
    transaction_id: order.apiTradeNo || order.tradeNo,
    open_order_id: order.tradeNo,
    order_title: order.name,
    status: "OD",
    appid: String(order.pid),
    time: String(order.paidAt ?? order.createdAt),
    nonce_str: randomBytes(8).toString("hex"),
  };
  if (order.extra.plugins) fields.plugins = order.extra.plugins;
  if (order.extra.attach) fields.attach = order.extra.attach;
  return fields;
}

const ACK = ["success", "成功", "ok"];

export const hashpayNotifier: FamilyNotifier = {
  family: "hashpay",
  notificationParams: hashPaidFields,
  method: () => "POST",
  // A fresh nonce_str at every attempt (the stored row keeps the first): a nonce is never reused.
  sign: (params, ctx) => withHash({ ...params, nonce_str: randomBytes(8).toString("hex") }, ctx.merchant.secret),
  isAcknowledged: (body) => ACK.some((a) => body.includes(a)),
  timeoutMs: 30_000,
  returnParams: (order, ctx) => withHash(hashPaidFields(order), ctx.merchant.secret),
};
