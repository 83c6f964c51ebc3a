// Request schemas of the report API (spec F). Integers arrive as strings from a query or as JSON
// numbers; the parameter reader turns both into strings before these checks.
import { INT, Opt, Req, paramSchema } from "../schema.ts";

const sign = Req("MD5 signature, 32 hex", { pattern: "^[0-9a-fA-F]{32}$" });
const timestamp = Req("Unix seconds (10 digits) or milliseconds (13 digits)", { pattern: "^\\d{10}(\\d{3})?$" });
const cents = Req("amount in cents, an integer", { pattern: "^\\d{1,11}$" });
const payType = Req("alipay / wxpay / qqpay", { maxLength: 20 });

export const MessageParams = paramSchema(
  { from: Req("origin", { maxLength: 128 }), content: Req("SmsForwarder item as a JSON string", { maxLength: 8192 }), timestamp, sign },
  "Notification message report",
);

export const AmountParams = paramSchema(
  {
    amount: cents,
    pay_type: payType,
    channel_code: Req("payment channel code", { maxLength: 64 }),
    remark: Opt("remark", { maxLength: 255 }),
    pay_time: Opt("pay time", { maxLength: 64 }),
    coll_user: Opt("receiving account", { maxLength: 128 }),
    pay_user: Opt("paying account", { maxLength: 128 }),
    uid: Opt("user id", { maxLength: 128 }),
    order_id: Opt("order number: the platform trade_no or the merchant out_trade_no", { maxLength: 64 }),
    out_order_id: Opt("order number: the merchant out_trade_no or the platform trade_no", { maxLength: 64 }),
    channel_account_id: Opt("channel account id", { pattern: INT }),
    timestamp,
    sign,
  },
  "Payment amount report",
);

export const HeartParams = paramSchema(
  { client_name: Req("client name", { maxLength: 128 }), channel_id: Opt("channel account id", { pattern: INT }), ext_data: Opt("JSON string", { maxLength: 4096 }), timestamp, sign },
  "Client heartbeat",
);

export const ThirdAccountParams = paramSchema(
  {
    account: Req("reporting account", { maxLength: 128 }),
    type: Req("account type, an integer", { pattern: INT }),
    sub_account: Req("monitored sub-account: a channel account's name, code or id", { maxLength: 128 }),
    amount: cents,
    pay_type: payType,
    channel_code: Req("payment channel code", { maxLength: 64 }),
    remark: Opt("remark", { maxLength: 255 }),
    out_order_id: Opt("order number: the merchant out_trade_no or the platform trade_no", { maxLength: 64 }),
    order_id: Opt("order number: the platform trade_no or the merchant out_trade_no", { maxLength: 64 }),
    timestamp,
    sign,
  },
  "Third-party account order report",
);

export const ThirdHeartParams = paramSchema(
  { account: Req("reporting account", { maxLength: 128 }), type: Req("account type, an integer", { pattern: INT }), timestamp, sign },
  "Third-party account heartbeat",
);

export const SmsForwarderParams = paramSchema(
  {
    from: Opt("the notification's app package (an SMS: the sender's number)", { maxLength: 128 }),
    content: Opt("default form: the app's default template, {{FROM}}\\n{{SMS}}\\n{{CARD_SLOT}}\\nUID：{{UID}}\\n{{RECEIVE_TIME}}\\n{{DEVICE_NAME}}", { maxLength: 8192 }),
    title: Opt("JSON template: [title]", { maxLength: 512 }),
    text: Opt("JSON template: [org_content], the notification's text", { maxLength: 8192 }),
    receive_time: Opt("JSON template: [receive_time]", { maxLength: 64 }),
    device: Opt("JSON template: [device_mark]", { maxLength: 128 }),
    timestamp: Req("the phone's clock in milliseconds (13 digits), within smsforwarder_window", { pattern: "^\\d{13}$" }),
    sign: Req("URL-encoded Base64(HMAC-SHA256(key = secret, timestamp + \"\\n\" + secret)), as the app sends it", { maxLength: 256 }),
  },
  "SmsForwarder webhook: its default form, or the JSON template of the client setup page",
);
