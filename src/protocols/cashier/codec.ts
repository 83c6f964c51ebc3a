// Checkout template API codec (/api/order/*): the {code, message, data} error shape, the response
// fields of info / status / audio / qrcode, and the settings behind them. Pure functions; the route
// files do the lookups and the HTTP. Messages are Chinese because the payer's page shows them as is.
import { formatDateTime } from "../../core/ids.ts";
import { formatYuan } from "../../core/money.ts";
import { isKnownPayType, type PayType } from "../../core/order-input.ts";
import type { MerchantSettingKey } from "../../core/merchant-settings.ts";
import type { Settings } from "../../core/settings.ts";
import type { ChannelAccount, Merchant, Order } from "../../core/types.ts";
import { payTypeLogoUrl } from "../links.ts";

export const Code = { Ok: 200, BadRequest: 400, NotFound: 404, Conflict: 409, Unavailable: 422, TooMany: 429, Internal: 500 } as const;

export interface ApiError {
  code: number;
  message: string;
  data: null;
}

export const apiError = (code: number, message: string): ApiError => ({ code, message, data: null });

/** List answers (pay-types, pay-type) need an envelope; the spec's four calls answer flat objects. */
export const envelope = <T>(data: T) => ({ code: Code.Ok, message: "success", data });

// Keyed by the known list, so a pay type added there cannot miss its name here.
const PAY_TYPE_TEXT: Record<PayType, string> = { alipay: "支付宝", wxpay: "微信支付", qqpay: "QQ钱包" };

export function payTypeText(payType: string): string {
  return isKnownPayType(payType) ? PAY_TYPE_TEXT[payType] : payType;
}

/**
 * A cashier setting: the merchant's own value (merchant.settings) wins over the operator's, so one
 * merchant can carry its own tip or service QQ on a shared gateway. A key the merchant set to ""
 * counts as set, which is how a merchant hides an operator-wide tip.
 */
export function cashierSetting(merchant: Merchant | null, s: Settings, key: MerchantSettingKey): string {
  if (merchant && Object.hasOwn(merchant.settings, key)) return merchant.settings[key] ?? "";
  return s.str(key);
}

function intSetting(merchant: Merchant | null, s: Settings, key: MerchantSettingKey, min: number, max: number): number {
  const v = cashierSetting(merchant, s, key);
  if (/^\d{1,5}$/.test(v) && Number(v) >= min && Number(v) <= max) return Number(v);
  return Math.min(max, Math.max(min, s.int(key)));
}

export const payedWaitTime = (m: Merchant | null, s: Settings) => intSetting(m, s, "pay_payed_wait_time", 0, 60);

/** pay_type_logo: the gateway's own icon of the pay type ('' before the payer picked one). */
export function infoFields(o: { order: Order; status: number; merchant: Merchant | null; settings: Settings; returnUri: string | null; baseUrl: string }) {
  const { order, merchant, settings } = o;
  const fields = {
    subject: order.name,
    out_order_id: order.outTradeNo,
    order_id: order.tradeNo,
    status: o.status,
    amount: order.amount,
    trade_amount: order.tradeAmount ?? order.amount,
    expire_time: order.expireTime,
    pay_type: order.payType,
    pay_type_text: order.payType ? payTypeText(order.payType) : "",
    create_time: formatDateTime(order.createdAt),
    pay_type_logo: order.payType ? payTypeLogoUrl(o.baseUrl, order.payType) : "",
    content: cashierSetting(merchant, settings, "pay_content"),
    service_qq: cashierSetting(merchant, settings, "service_qq"),
    pay_tip: cashierSetting(merchant, settings, "pay_tip"),
    pay_payed_wait_time: payedWaitTime(merchant, settings),
    pay_account_tip: {
      tip: cashierSetting(merchant, settings, "pay_account_tip"),
      tip_cover: cashierSetting(merchant, settings, "pay_account_tip_cover") === "1" ? 1 : 0,
    },
  };
  return o.returnUri === null ? fields : { ...fields, return_uri: o.returnUri };
}

export function statusFields(o: { order: Order; status: number; returnUri: string | null; autoOpen: boolean; waitTime: number }) {
  const fields = { status: o.status, expire_time: o.order.expireTime, is_auto_open: o.autoOpen ? 1 : 0, pay_payed_wait_time: o.waitTime };
  return o.returnUri === null ? fields : { ...fields, return_uri: o.returnUri };
}

/**
 * The wallet is opened for the payer only where that can work: the account has an app scheme and
 * the payer is on a phone. The browser asking is the payer, so its user agent decides; the order's
 * `device` (judged when a merchant's server created it) only adds phones the merchant named.
 */
export function isAutoOpen(account: ChannelAccount | null, orderDevice: string, userAgent: string): boolean {
  if (!account?.scheme) return false;
  return /Mobile|Android|iPhone|iPad|MicroMessenger|AlipayClient|QQ\//i.test(userAgent) || ["mobile", "wap", "qq", "wechat", "alipay"].includes(orderDevice);
}

/** Placeholders of the spoken prompt; amounts in yuan and the pay type by name, as they are read aloud. */
export function templateValues(order: Order): Record<string, string> {
  return {
    trade_amount: formatYuan(order.tradeAmount ?? order.amount),
    amount: formatYuan(order.amount),
    order_id: order.tradeNo,
    out_order_id: order.outTradeNo,
    subject: order.name,
    pay_type: order.payType ? payTypeText(order.payType) : "",
  };
}

/** Replaces {{name}}; unknown placeholders stay visible so an operator sees the typo. */
export function renderTemplate(template: string, values: Record<string, string>, encode: (v: string) => string = (v) => v): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? encode(values[name]!) : whole));
}

/** audio_url may name a TTS service: its placeholders (plus {{content}}) are URL-encoded. */
export function audioFields(order: Order, merchant: Merchant | null, s: Settings) {
  if (cashierSetting(merchant, s, "audio_enable") !== "1") return { audio_enable: 0, audio_url: "", audio_content: "" };
  const values = templateValues(order);
  const content = renderTemplate(cashierSetting(merchant, s, "audio_content"), values);
  const url = renderTemplate(cashierSetting(merchant, s, "audio_url"), { ...values, content }, encodeURIComponent);
  return { audio_enable: 1, audio_url: url, audio_content: content };
}

/** `uri`: a static code that is itself a web link (https://qr.alipay.com/...) opens the wallet on a phone. */
export function qrcodeFields(order: Order, account: ChannelAccount, imageUrl: (text: string) => string) {
  const data = account.qrcode;
  return {
    type: order.payType,
    qrcode_data: data,
    qrcode: data ? imageUrl(data) : "",
    scheme: account.scheme,
    uri: /^https?:\/\//i.test(data) ? data : "",
    content: "",
    actual_amount: formatYuan(order.tradeAmount ?? order.amount),
    actual_account: account.name,
    actual_account_type: payTypeText(order.payType),
  };
}

export { payTypeLogoUrl, QR_MAX_TEXT, QR_PATH, qrImageUrl } from "../links.ts";
