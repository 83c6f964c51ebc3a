import { INT, Opt, Req, YUAN, paramSchema } from "../schema.ts";

const pid = Req("merchant id", { pattern: INT });
const sign = Req("MD5 signature, 32 lowercase hex", { pattern: "^[0-9a-fA-F]{32}$" });

export const CreateParams = paramSchema(
  {
    pid,
    pay_type: Req("alipay / wxpay / qqpay ...", { maxLength: 20 }),
    name: Req("product name", { maxLength: 127 }),
    money: Req("amount in yuan, at most 2 decimals, e.g. 10.00", { pattern: YUAN }),
    out_trade_no: Req("merchant order number, unique per merchant", { maxLength: 64 }),
    notify_url: Opt("asynchronous notification URL", { maxLength: 1024 }),
    return_url: Opt("synchronous redirect URL", { maxLength: 1024 }),
    clientip: Opt("payer IP", { maxLength: 64 }),
    device: Opt("pc / mobile / wap", { maxLength: 16 }),
    param: Opt("echoed back in the notification", { maxLength: 1024 }),
    sign,
  },
  "Native create (and create-page)",
);

export const StatusParams = paramSchema({ out_order_id: Req("merchant order number", { maxLength: 64 }), pid, sign }, "Native status");

export const CancelParams = paramSchema(
  {
    out_order_id: Opt("merchant order number (or order_id)", { maxLength: 64 }),
    order_id: Opt("platform order number (or out_order_id)", { maxLength: 64 }),
    pid,
    timestamp: Req("Unix seconds", { pattern: "^\\d{10}$" }),
    sign,
  },
  "Native cancel",
);

export const ChannelsParams = paramSchema({ pid, timestamp: Opt("Unix seconds", { pattern: "^\\d{1,13}$" }), sign }, "Native user-channels");
