// V免签 codec: its {code, msg, data} answer with the Chinese messages its app and shop drivers
// know, and its signatures. Every signature is md5 over a plain concatenation with the key
// appended, no separators; what keeps a captured signature from being re-cut into other fields
// is the strict shape of each field (checked by the routes before anything is trusted):
//   heartbeat / getState  md5(t + key)                     t: 13 digits (getState: 10 or 13)
//   push                  md5(type + price + t + key)      type: one character, t: 13 digits
//   createOrder           md5(payId + param + type + price + key)
//   closeOrder            md5(orderId + key)
//   notification, return  md5(payId + param + type + price + reallyPrice + key)
// Pure: no HTTP, no store.
import { formatYuan } from "../../core/money.ts";
import type { ChannelAccount, Order } from "../../core/types.ts";
import { md5Hex, safeEqual } from "../signing.ts";

export const VmqCode = { Ok: 1, Fail: -1 } as const;

export interface VmqEnvelope<T = unknown> {
  code: number;
  msg: string;
  data: T | null;
}

export const ok = <T>(data: T | null = null): VmqEnvelope<T> => ({ code: VmqCode.Ok, msg: "成功", data });
export const fail = (msg: string): VmqEnvelope => ({ code: VmqCode.Fail, msg, data: null });

/** V免签's own wording where it has one; the rest in the same style. Never the caller's text. */
export const Msg = {
  BadSign: "签名校验不通过",
  BadCreateSign: "签名错误",
  ClockWrong: "客户端时间错误",
  NoPayId: "请传入商户订单号",
  NoType: "请传入支付方式=>1|微信 2|支付宝",
  BadType: "支付方式错误=>1|微信 2|支付宝",
  NoPrice: "请传入订单金额",
  BadPrice: "订单金额必须大于0",
  PriceFormat: "金额格式错误：最多两位小数，且不超过99999999.99",
  NoSign: "请传入签名",
  PayIdExists: "商户订单号已存在",
  MonitorOffline: "监控端状态异常，请检查",
  Overloaded: "订单超出负荷，请稍后重试",
  NotConfigured: "请您先进入后台配置程序",
  NoOrder: "云端订单编号不存在",
  Unpaid: "订单未支付",
  Expired: "订单已过期",
  CannotClose: "订单状态不允许关闭",
  Unreadable: "请求参数无法解析",
  Disabled: "商户已停用",
  ReplayedHeart: "心跳已处理过（t 不比上一次新）",
  Throttled: "认证失败次数过多，请一分钟后再试",
  NotFound: "接口不存在",
  Internal: "服务器内部错误",
} as const;

/** V免签 type 1 is WeChat, 2 Alipay; exactly one character, so a signature cannot be re-cut there. */
export function payTypeOf(type: string | undefined): "wxpay" | "alipay" | null {
  return type === "1" ? "wxpay" : type === "2" ? "alipay" : null;
}

export function vmqTypeOf(payType: string): string {
  return payType === "wxpay" ? "1" : payType === "alipay" ? "2" : "";
}

export const heartText = (t: string) => t;
export const pushText = (type: string, price: string, t: string) => type + price + t;
export const createText = (payId: string, param: string, type: string, price: string) => payId + param + type + price;
export const closeText = (orderId: string) => orderId;
export const paidText = (f: PaidFields) => f.payId + f.param + f.type + f.price + f.reallyPrice;

export const vmqSign = (text: string, key: string) => md5Hex(text + key);

/**
 * The client whose key makes `sign` the signature of `text`. Every key is tried (no early exit),
 * so the answer's timing says nothing about which client, if any, matched.
 */
export function clientBySign<C extends { key: string }>(clients: C[], text: string, sign: string | undefined): C | null {
  if (typeof sign !== "string" || !/^[0-9a-fA-F]{32}$/.test(sign)) return null;
  let found: C | null = null;
  for (const c of clients) if (safeEqual(vmqSign(text, c.key), sign) && !found) found = c;
  return found;
}

/** The app's `t`: its clock in milliseconds, 13 digits, within `windowSeconds` of ours. */
export function checkAppTime(t: string, nowMs: number, windowSeconds: number, o: { allowSeconds?: boolean } = {}): boolean {
  let ms: number;
  if (/^\d{13}$/.test(t)) ms = Number(t);
  else if (o.allowSeconds && /^\d{10}$/.test(t)) ms = Number(t) * 1000;
  else return false;
  return Math.abs(nowMs - ms) <= windowSeconds * 1000;
}

/** V免签 order states: 0 unpaid, 1 paid, -1 closed or expired. */
export function vmqState(status: number): number {
  return status === 1 ? 0 : status === 2 ? 1 : -1;
}

/** The `data` of createOrder and getOrder. `price` is the merchant's own text, as V免签 echoes it. */
export function orderData(order: Order, account: ChannelAccount | null, orderTtl: number, status: number) {
  return {
    payId: order.outTradeNo,
    orderId: order.tradeNo,
    payType: Number(vmqTypeOf(order.payType)),
    price: order.extra.vmq_price ?? formatYuan(order.amount),
    reallyPrice: formatYuan(order.tradeAmount ?? order.amount),
    payUrl: account?.qrcode ?? "",
    isAuto: 1,
    state: vmqState(status),
    timeOut: Math.max(1, Math.floor(orderTtl / 60)),
    date: order.createdAt,
  };
}

export interface PaidFields extends Record<string, string> {
  payId: string;
  param: string;
  type: string;
  price: string;
  reallyPrice: string;
}

/** Notification fields: `price` as the merchant sent it (its driver credits that text). */
export function notificationFields(order: Order): PaidFields {
  return {
    payId: order.outTradeNo,
    param: order.param,
    type: vmqTypeOf(order.payType),
    price: order.extra.vmq_price ?? formatYuan(order.amount),
    reallyPrice: formatYuan(order.tradeAmount ?? order.amount),
  };
}

/** Return URL fields: V免签 writes both amounts with two decimals there. */
export function returnFields(order: Order): PaidFields {
  return { ...notificationFields(order), price: formatYuan(order.amount) };
}

export function withPaidSign(f: PaidFields, key: string): Record<string, string> {
  return { ...f, sign: vmqSign(paidText(f), key) };
}
