// The vmq routes' parameters for the reference and OpenAPI. The routes check them by hand, in
// V免签's order and with its messages (create.ts, push.ts, ...); these schemas only describe them.
import { Opt, paramSchema, Req } from "../schema.ts";

const sign = Req("MD5 of the concatenation shown in the route summary + key, 32 hex", { pattern: "^[0-9a-fA-F]{32}$" });
const appTime = Req("the phone's clock in milliseconds, 13 digits, within vmq_time_window", { pattern: "^\\d{13}$" });
const orderId = Req("xpay's order number (trade_no) from createOrder", { pattern: "^[0-9A-Za-z_-]{1,64}$" });

export const HeartParams = paramSchema({ t: appTime, sign }, "sign = md5(t + key)");
export const PushParams = paramSchema(
  {
    t: appTime,
    type: Req("1 WeChat, 2 Alipay", { pattern: "^[12]$" }),
    price: Req("the amount received as Java Double.toString prints it (10.0, 9.99, 1.0E7); whole cents", { maxLength: 32 }),
    force_push: Opt("re-sent by a fork of the app; not signed, ignored"),
    sign,
  },
  "sign = md5(type + price + t + key)",
);
export const StateParams = paramSchema({ t: Req("Unix seconds (10 digits) or milliseconds (13 digits), within vmq_time_window", { pattern: "^\\d{10}(\\d{3})?$" }), sign }, "sign = md5(t + key)");
export const CreateParams = paramSchema(
  {
    payId: Req("merchant order number, unique per merchant", { pattern: "^[\\x21-\\x7e]{1,64}$" }),
    param: Opt("echoed in the notification", { maxLength: 1024 }),
    type: Req("1 WeChat, 2 Alipay", { pattern: "^[12]$" }),
    price: Req("yuan, more than 0, at most two decimals, signed as sent", { pattern: "^\\d{1,8}(\\.\\d{1,2})?$" }),
    notifyUrl: Opt("http(s) URL notified by GET; unsigned, so used only when it is the merchant's configured vmq_notify_url or on a vmq_url_hosts host (then never a private address), else the configured one; none configured: refused", { maxLength: 1024 }),
    returnUrl: Opt("http(s) URL the payer returns to; used on the same terms, else the configured vmq_return_url (or none)", { maxLength: 1024 }),
    isHtml: Opt("1: 302 to the cashier page", { pattern: "^[01]$" }),
    sign,
  },
  "sign = md5(payId + param + type + price + key)",
);
export const LookupParams = paramSchema({ orderId }, "no signature: the order number is the key");
export const CloseParams = paramSchema({ orderId, sign }, "sign = md5(orderId + key)");
