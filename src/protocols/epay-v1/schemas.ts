import { INT, Opt, Req, YUAN, paramSchema } from "../schema.ts";

// Shared by V1 submit.php / mapi.php and the V2 create routes: the epay order fields.
export const epayOrderFields = {
  pid: Req("merchant id", { pattern: INT }),
  out_trade_no: Req("merchant order number, unique per merchant", { maxLength: 64 }),
  name: Req("product name", { maxLength: 127 }),
  money: Req("amount in yuan, at most 2 decimals, e.g. 10.00", { pattern: YUAN }),
  notify_url: Opt("asynchronous notification URL", { maxLength: 1024 }),
  return_url: Opt("synchronous redirect URL", { maxLength: 1024 }),
  param: Opt("echoed back in the notification", { maxLength: 1024 }),
  clientip: Opt("payer IP", { maxLength: 64 }),
  device: Opt("pc / mobile / wap", { maxLength: 16 }),
};

const sign = Req("MD5 signature, 32 lowercase hex", { pattern: "^[0-9a-fA-F]{32}$" });

export const SubmitParams = paramSchema(
  { ...epayOrderFields, type: Opt("alipay / wxpay / qqpay ...; omitted: the payer picks on the cashier page", { maxLength: 20 }), sitename: Opt("site name"), sign, sign_type: Opt("MD5") },
  "epay V1 submit.php: fields from the query when it has pid, else from the body",
);

export const MapiParams = paramSchema(
  { ...epayOrderFields, type: Req("alipay / wxpay / qqpay ...; required here (a server names the pay type; submit.php without it lets the payer pick)", { maxLength: 20 }), sign, sign_type: Opt("MD5") },
  "epay V1 mapi.php",
);

export const ApiParams = paramSchema(
  {
    act: Req("query / order / orders", { pattern: "^(query|order|orders)$" }),
    pid: Req("merchant id", { pattern: INT }),
    key: Req("communication key (the merchant AppSecret)", { maxLength: 128 }),
    trade_no: Opt("platform order number (act=order)", { maxLength: 64 }),
    out_trade_no: Opt("merchant order number (act=order)", { maxLength: 64 }),
    page: Opt("page number from 1 (act=orders)", { pattern: "^\\d{1,6}$" }),
    limit: Opt("orders per page, default 20, at most 100 (act=orders)", { pattern: "^\\d{1,6}$" }),
  },
  "epay V1 api.php",
);
