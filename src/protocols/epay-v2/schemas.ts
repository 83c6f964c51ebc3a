import { epayOrderFields } from "../epay-v1/schemas.ts";
import { INT, Opt, Req, paramSchema } from "../schema.ts";

const timestamp = Req("Unix seconds, 10 digits", { pattern: "^\\d{10}$" });
const sign = Req("RSA-SHA256 signature, Base64, by the merchant private key", { maxLength: 1024 });
const signType = Opt("RSA");

export const SubmitParams = paramSchema(
  { ...epayOrderFields, notify_url: Req("asynchronous notification URL", { maxLength: 1024 }), type: Opt("alipay / wxpay ...; omitted: the payer picks on the cashier page", { maxLength: 20 }), timestamp, sign, sign_type: signType },
  "epay V2 submit: 302 to the cashier page",
);

export const CreateParams = paramSchema(
  {
    ...epayOrderFields,
    notify_url: Req("asynchronous notification URL", { maxLength: 1024 }),
    type: Req("alipay / wxpay / qqpay ...", { maxLength: 20 }),
    method: Opt("web / jump / jsapi / app / applet (default web)", { pattern: "^(web|jump|jsapi|app|scan|applet)$" }),
    device: Opt("pc / mobile / qq / wechat / alipay", { maxLength: 16 }),
    auth_code: Opt("scan payment code (not supported)"),
    sub_openid: Opt("payer openid (jsapi)"),
    sub_appid: Opt("appid (jsapi)"),
    timestamp,
    sign,
    sign_type: signType,
  },
  "epay V2 create: code 0 with pay_type and pay_info",
);

export const QueryParams = paramSchema(
  {
    pid: Req("merchant id", { pattern: INT }),
    trade_no: Opt("platform order number (or out_trade_no)", { maxLength: 64 }),
    out_trade_no: Opt("merchant order number (or trade_no)", { maxLength: 64 }),
    timestamp,
    sign,
    sign_type: signType,
  },
  "epay V2 query",
);
