// epay V2 (RSA) codec: response signing, the pay_type/pay_info choice, query and notification
// fields. Pure functions; the route files do the HTTP.
import type { FamilyNotifier } from "../../core/families.ts";
import { formatDateTime } from "../../core/ids.ts";
import { formatYuan } from "../../core/money.ts";
import { KEY_AFTER_AMPERSAND } from "../../core/order-input.ts";
import type { ChannelAccount, Order } from "../../core/types.ts";
import { isPlainSuccess } from "../epay-v1/codec.ts";
import { payTarget } from "../pay-target.ts";
import { nonEmpty, rsaSign } from "../signing.ts";

export type Scalar = string | number;
export type Fields = Record<string, Scalar>;

/**
 * One platform key signs every merchant's responses and notifications over `k=v&k=v` with raw
 * values, so a value holding `&key=` could be re-read as other fields: a merchant who put
 * `x&trade_status=TRADE_SUCCESS&pid=1002&...` in a name would hold a platform signature that
 * another merchant's SDK takes for a payment. When no value holds an `&` followed by `=` (with no
 * other `&` between), every `key=` that a re-reading can start lies on a real field boundary, so
 * each key keeps its real value's beginning: no forged pid, money or trade_status. `Tom & Jerry`
 * stays signable. `pay_info` is exempt: it is the operator's own link (cashier URL, QR, scheme).
 * Every family's create refuses such order fields (core/order-input.ts, the same pattern); the
 * signer refuses them again for orders stored before that rule or reported by a phone.
 */
const OPERATOR_FIELDS: ReadonlySet<string> = new Set(["pay_info"]);

/** The first field whose value would make the signed string ambiguous, or null. */
export function ambiguousField(fields: Record<string, Scalar>): string | null {
  for (const [k, v] of Object.entries(fields)) {
    if (!OPERATOR_FIELDS.has(k) && KEY_AFTER_AMPERSAND.test(String(v))) return k;
  }
  return null;
}

export class AmbiguousSignature extends Error {}

/**
 * Adds `timestamp`, `sign` and `sign_type` to exactly the given fields. The V2 SDK accepts a
 * response only when `sign` covers every other top-level field, `code` and `msg` included, so
 * nothing may be added after signing and every value must be a scalar. Refuses (throws) to sign a
 * value holding `&` (see OPERATOR_FIELDS).
 */
export function signV2(fields: Fields, platformPrivateKey: string, now: number): Fields {
  if (!platformPrivateKey) throw new Error("the platform private key is missing (it is created on first start)");
  const bad = ambiguousField(fields);
  if (bad !== null) throw new AmbiguousSignature(`refusing to sign: ${bad} contains &`);
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

/**
 * The V2 notification and return fields, unsigned (timestamp and sign are added at send time).
 * Empty ones (`api_trade_no`, `param`, `buyer` when unknown) are left out, as 彩虹易支付 sends
 * them; the RSA rule skips empty values, so the signature is the same either way.
 */
export function v2PaidFields(order: Order): Record<string, string> {
  return nonEmpty({
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
  });
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
  // nonEmpty: outbox rows written before empty fields were left out still hold them.
  sign: (params, ctx) => asStrings(signV2(nonEmpty(params), ctx.platformPrivateKey, ctx.now)),
  isAcknowledged: isPlainSuccess,
  timeoutMs: 30_000,
  returnParams: (order, ctx) => asStrings(signV2(v2PaidFields(order), ctx.platformPrivateKey, ctx.now)),
};
