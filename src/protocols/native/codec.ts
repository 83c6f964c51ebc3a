// Native protocol codec: MD5 signing, the {code,msg,data} envelope, response and notification
// fields. Pure functions; the route files do the HTTP.
import { formatYuan } from "../../core/money.ts";
import type { FamilyNotifier } from "../../core/families.ts";
import type { ChannelAccount, Order } from "../../core/types.ts";
import { md5Sign, md5Verify, nonEmpty, type Signable } from "../signing.ts";

export const NATIVE_EXCLUDED = ["sign"] as const;

export const Code = { Ok: 200, BadRequest: 400, BadSign: 401, Forbidden: 403, NotFound: 404, Conflict: 409, Unavailable: 422, TooMany: 429, Internal: 500 } as const;

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T | null;
}

export const ok = <T>(data: T): Envelope<T> => ({ code: Code.Ok, msg: "success", data });
export const fail = (code: number, msg: string): Envelope => ({ code, msg, data: null });

export const signNative = (params: Signable, secret: string) => md5Sign(params, secret, NATIVE_EXCLUDED);
export const verifyNative = (params: Signable, secret: string) => md5Verify(params, secret, "sign", NATIVE_EXCLUDED);

export function createData(order: Order, account: ChannelAccount | null, cashierUrl: string) {
  const data: Record<string, string | number> = {
    trade_no: order.tradeNo,
    out_trade_no: order.outTradeNo,
    expire_time: order.expireTime,
    pay_type: order.payType,
    amount: formatYuan(order.amount),
    trade_amount: formatYuan(order.tradeAmount ?? order.amount),
    uri: cashierUrl,
  };
  if (account?.qrcode) data.qrcode = account.qrcode;
  if (account?.scheme) data.scheme = account.scheme;
  return data;
}

/**
 * The fields of the native notification and return redirect (amounts in cents). An empty `param`
 * is left out like in the epay families: the spec lists it, but its verifier skips empty values,
 * so the signature is the same whether `param=` is there or not, and a receiver that signs every
 * field it got verifies only without it.
 */
export function paidFields(order: Order): Record<string, string> {
  return nonEmpty({
    pid: String(order.pid),
    trade_no: order.tradeNo,
    out_trade_no: order.outTradeNo,
    pay_type: order.payType,
    name: order.name,
    amount: String(order.amount),
    trade_amount: String(order.tradeAmount ?? order.amount),
    param: order.param,
    status: String(order.status),
  });
}

export const nativeNotifier: FamilyNotifier = {
  family: "native",
  notificationParams: paidFields,
  method: (m) => m.notifyMethod,
  // nonEmpty: outbox rows written before empty fields were left out still hold `param: ""`.
  sign: (params, ctx) => {
    const sent = nonEmpty(params);
    return { ...sent, sign: signNative(sent, ctx.merchant.secret) };
  },
  isAcknowledged: (body) => body.includes("success"),
  timeoutMs: 60_000,
  returnParams: (order, ctx) => {
    const fields = paidFields(order);
    return { ...fields, sign: signNative(fields, ctx.merchant.secret) };
  },
};
