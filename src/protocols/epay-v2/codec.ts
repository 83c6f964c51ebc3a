// epay V2 (RSA) codec: response signing, the pay_type/pay_info choice, query and notification
// fields. Pure functions; the route files do the HTTP.
import type { FamilyNotifier } from "../../core/families.ts";
import { formatDateTime } from "../../core/ids.ts";
import { formatYuan } from "../../core/money.ts";
import type { ChannelAccount, Order } from "../../core/types.ts";
import { isPlainSuccess } from "../epay-v1/codec.ts";
import { payTarget } from "../pay-target.ts";
import { rsaSign } from "../signing.ts";

export type Scalar = string | number;
export type Fields = Record<string, Scalar>;

/**
 * Adds `timestamp`, `sign` and `sign_type` to exactly the given fields. The V2 SDK accepts a
 * response only when `sign` covers every other top-level field, `code` and `msg` included, so
 * nothing may be added after signing and every value must be a scalar.
 */
export function signV2(fields: Fields, platformPrivateKey: string, now: number): Fields {
  if (!platformPrivateKey) throw new Error("the platform private key is missing (it is created on first start)");
  const withTs = { ...fields, timestamp: String(now) };
  return { ...withTs, sign: rsaSign(withTs, platformPrivateKey), sign_type: "RSA" };
}

export const v2Fail = (msg: string): Fields => ({ code: -1, msg });

export const METHODS = ["web", "jump", "jsapi", "app", "scan", "applet"] as const;

export type PayInfo = { ok: true; pay_type: "jump" | "qrcode" | "urlscheme"; pay_info: string } | { ok: false; msg: string };

/** Methods that need a provider API (scan = merchant scans the payer's code) cannot work on a
 * personal QR account; refuse them before an order is created. */
export function unsupportedMethod(method: string): string | null {
  return method === "scan" ? "method scan (auth_code payment) is not supported by this gateway; use web or jump" : null;
}

/**
 * pay_type/pay_info from method and device. The account's own QR or scheme is handed out only when
 * payTarget says it is safe (payer pays exactly the order amount); everything else goes through
 * the cashier page, which shows the adjusted trade_amount.
 */
export function chooseCreatePay(method: string, device: string, order: Order, account: ChannelAccount | null, cashierUrl: string): PayInfo {
  const target = payTarget(order, account);
  const jump = { ok: true as const, pay_type: "jump" as const, pay_info: cashierUrl };
  switch (method || "web") {
    case "web":
      if ((device === "" || device === "pc") && target.qrcode) return { ok: true, pay_type: "qrcode", pay_info: target.qrcode };
      if (device !== "" && device !== "pc" && target.scheme) return { ok: true, pay_type: "urlscheme", pay_info: target.scheme };
      return jump;
    case "app":
      return target.scheme ? { ok: true, pay_type: "urlscheme", pay_info: target.scheme } : jump;
    case "jump":
    case "jsapi":
    case "applet":
      return jump;
    default:
      return { ok: false, msg: `unsupported method: ${method.slice(0, 20)}` };
  }
}

/** The V2 notification and return fields, unsigned (timestamp and sign are added at send time). */
export function v2PaidFields(order: Order): Record<string, string> {
  return {
    pid: String(order.pid),
    trade_no: order.tradeNo,
    out_trade_no: order.outTradeNo,
    api_trade_no: order.apiTradeNo,
    type: order.payType,
    trade_status: "TRADE_SUCCESS",
    name: order.name,
    money: formatYuan(order.amount),
    param: order.param,
    buyer: order.buyer,
    addtime: formatDateTime(order.createdAt),
    endtime: order.paidAt === null ? "" : formatDateTime(order.paidAt),
  };
}

/** The query response fields (before signing); `status` is already in the operator's style. */
export function v2QueryFields(order: Order, status: number): Fields {
  return {
    code: 0,
    msg: "success",
    trade_no: order.tradeNo,
    out_trade_no: order.outTradeNo,
    api_trade_no: order.apiTradeNo,
    type: order.payType,
    status,
    pid: String(order.pid),
    money: formatYuan(order.amount),
    name: order.name,
    param: order.param,
    buyer: order.buyer,
    clientip: order.clientip,
    addtime: formatDateTime(order.createdAt),
    endtime: order.paidAt === null ? "" : formatDateTime(order.paidAt),
  };
}

const asStrings = (f: Fields): Record<string, string> => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, String(v)]));

export const epayV2Notifier: FamilyNotifier = {
  family: "epay-v2",
  notificationParams: v2PaidFields,
  method: () => "GET",
  // A fresh timestamp at every attempt: the SDK refuses notifications older than 300 s.
  sign: (params, ctx) => asStrings(signV2(params, ctx.platformPrivateKey, ctx.now)),
  isAcknowledged: isPlainSuccess,
  timeoutMs: 30_000,
  returnParams: (order, ctx) => asStrings(signV2(v2PaidFields(order), ctx.platformPrivateKey, ctx.now)),
};
