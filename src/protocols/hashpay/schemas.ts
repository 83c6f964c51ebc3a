import { INT, Opt, Req, YUAN, paramSchema } from "../schema.ts";

const appid = Req("merchant id (pid)", { pattern: INT });
const hash = Req("MD5 signature, 32 lowercase hex", { pattern: "^[0-9a-fA-F]{32}$" });
const time = Req("Unix seconds", { pattern: "^\\d{1,13}$" });
const nonce = Req("random string", { maxLength: 64 });

// title and wap_name are counted in characters by hashFieldProblem, not here in UTF-16 units.
export const CreateParams = paramSchema(
  {
    version: Req("API version, 1.1", { maxLength: 8 }),
    appid,
    trade_order_id: Req("merchant order number, unique per merchant", { maxLength: 64 }),
    total_fee: Req("amount in yuan, to the cent, e.g. 0.10", { pattern: YUAN }),
    title: Req("order title, at most 128 characters"),
    time,
    notify_url: Req("asynchronous notification URL, without &", { maxLength: 1024 }),
    nonce_str: nonce,
    hash,
    return_url: Opt("success redirect", { maxLength: 1024 }),
    callback_url: Opt("redirect on cancel", { maxLength: 1024 }),
    plugins: Opt("integration tag, echoed in the notification", { maxLength: 128 }),
    attach: Opt("remark, echoed in the notification", { maxLength: 1024 }),
    type: Opt("WAP (WeChat H5) or JSAPI (mini-program)", { pattern: "^(WAP|JSAPI)$" }),
    wap_url: Opt("website domain (H5, mini-program)", { maxLength: 256 }),
    wap_name: Opt("website name (H5), at most 32 characters"),
    payment: Opt("alipay / wechat (wxpay); omitted: from type, else the payer picks", { maxLength: 20 }),
  },
  "Hash protocol create",
);

export const QueryParams = paramSchema(
  {
    appid,
    out_trade_order: Opt("merchant order number (or open_order_id)", { maxLength: 64 }),
    open_order_id: Opt("platform order number (or out_trade_order)", { maxLength: 64 }),
    time,
    nonce_str: nonce,
    hash,
  },
  "Hash protocol query",
);
