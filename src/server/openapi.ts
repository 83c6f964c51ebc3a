// The one list of documented routes: each family's request schemas (the same ParamSchema objects
// the routes validate with) plus what the route answers. scripts/gen-reference.ts renders it as
// docs/reference.md and this file serves it as OpenAPI at /openapi/json (UI at /openapi). The
// routes read raw requests (parse: "none"), so the plugin alone would see no parameters: the
// paths it describes are replaced by the ones built here.
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { redirect } from "../protocols/http.ts";
import pkg from "../../package.json";
import type { TSchema } from "@sinclair/typebox";
import * as epayV1 from "../protocols/epay-v1/schemas.ts";
import * as epayV2 from "../protocols/epay-v2/schemas.ts";
import * as hashpay from "../protocols/hashpay/schemas.ts";
import * as native from "../protocols/native/schemas.ts";
import * as report from "../protocols/report/schemas.ts";
import * as vmq from "../protocols/vmq/schemas.ts";
import { Opt, paramSchema, type ParamSchema } from "../protocols/schema.ts";

export type Method = "GET" | "POST";

export interface Family {
  id: string;
  title: string;
  /** What an SDK is configured with, and how requests are signed. */
  intro: string;
}

export interface RouteDoc {
  family: string;
  methods: Method[];
  path: string;
  summary: string;
  params: ParamSchema;
  /** Where the parameters go, when it is not simply "query for GET, form or JSON body for POST". */
  input?: string;
  response: string;
}

export const FAMILIES: Family[] = [
  {
    id: "native",
    title: "Native protocol (/xpay/)",
    intro:
      "Form or JSON body. `sign` = md5(ASCII-sorted non-empty `k=v` joined with `&`, without `sign`, + AppSecret), lowercase hex, over every parameter sent. " +
      "Every answer is HTTP 200 with `{code, msg, data}`: 200 success, 400 bad input, 401 signature mismatch, 403 unknown or disabled merchant, 404 order not found, 409 conflict, 422 creation failed, 500 internal error. " +
      "Notification (POST form, or GET per merchant) and return link: `pid, trade_no, out_trade_no, pay_type, name, amount, trade_amount` (cents), `param`, `status` 2, `sign`; `param` is left out when empty (the signature is the same, since the rule skips empty values).",
  },
  {
    id: "epay-v1",
    title: "epay V1 (/xpay/epay/)",
    intro:
      "SDK base `{base_url}/xpay/epay/`. `sign` as the native rule but without `sign` and `sign_type`; `sign_type` is `MD5`. `api.php` authenticates with `key` (the AppSecret) instead. " +
      "`mapi.php`/`api.php` answer `code` 1 (an integer) on success, `{code: -1, msg}` on failure; `submit.php` answers 302 or an HTML error page (HTTP 400). " +
      "`submit.php` and `mapi.php` also accept a signature made with empty values kept as `k=` (SSPanel's mapi.php signs so). " +
      "Notification (GET, acknowledged by the body `success`) and return link: `pid, trade_no, out_trade_no, type, name, money, trade_status` TRADE_SUCCESS, `param`, `sign`, `sign_type` MD5, and never an empty field: `param` (or any other field with no value) is left out, as 彩虹易支付 does, so md5(urldecode(http_build_query(every received field but sign and sign_type, ksorted)) . key) verifies.",
  },
  {
    id: "epay-v2",
    title: "epay V2 (/xpay/epayn/)",
    intro:
      "SDK base `{base_url}/xpay/epayn/`, requests to `api/pay/<name>`. `sign` = Base64 RSA-SHA256 (merchant private key) over ASCII-sorted non-empty `k=v` joined with `&`, without `sign` and `sign_type`, nothing appended; `timestamp` within 300 s. " +
      "Every JSON answer (failures `{code: -1, msg}` too) carries `timestamp`, `sign` (platform private key, same rule) and `sign_type` `RSA`. `refund`, `refundquery`, `transfer`, `transfer/query`, `balance` answer `Not implemented` (HTTP 501). " +
      "Notification (GET, acknowledged by `success`) and return link: `pid, trade_no, out_trade_no, api_trade_no, type, trade_status, name, money, param, buyer, addtime, endtime, timestamp, sign, sign_type`, with `api_trade_no`, `param` and `buyer` (any field with no value) left out when empty. Query answers keep their empty fields (the SDK checks them over exactly what they carry).",
  },
  {
    id: "hashpay",
    title: "Hash protocol (/xpay/hashpay/)",
    intro:
      "SDK base `{base_url}/xpay/hashpay/` (alias `/xpay/hupijiao/`). Form or JSON body (JSON recognised by its leading `{`). `hash` = md5(ASCII-sorted non-empty `k=v` joined with `&`, without `hash`, + AppSecret). " +
      "Answers carry `errcode` (string: `0`, `400`, `402` bad hash, `403`, `404`, `409`, `422`, `500`), `errmsg` and a `hash` over the other fields. " +
      "Notification (POST form): `trade_order_id, total_fee, transaction_id, open_order_id, order_title, status` OD, `appid, time, nonce_str, hash`, all with a value, plus `plugins` and `attach` only when the create gave them.",
  },
  {
    id: "template",
    title: "Checkout template API (/api/order/)",
    intro:
      "Called by the cashier page; public (no signature), keyed by the unguessable `order_id`. Form or JSON body; `?_time=` is ignored. Errors are `{code, message, data: null}` with the HTTP status equal to `code` (400, 404, 409, 422, 429, 500); every answer has `Cache-Control: no-store`. " +
      "Lookups that find no order are logged and limited per client address (`lookup_miss_limit`, 30 a minute): past it every lookup from that address is 429 with `Retry-After`. " +
      "`pay_type_logo` is an SVG icon the gateway serves itself: `{base_url}/assets/pay-types/{alipay|wxpay|qqpay|other}.svg`.",
  },
  {
    id: "report",
    title: "Report API (/api/report/)",
    intro:
      "Monitoring clients. GET query or POST JSON/form body. `sign` = md5(ASCII-sorted non-empty `k=v` joined with `&`, without `sign`, + secret): under `/api/report/{pid}` the secret of a report client of that pid (`xpay client add-report`; pid 0: the operator's own phone, which may pay any merchant's orders on the accounts it watches) or, while `report_merchant_secret` is 1, the merchant's AppSecret, which pays only on that merchant's own accounts no client is bound to; the operator's `third_account_secret` under `/api/report/third-account`. " +
      "A report pays, and a heartbeat marks online, only the accounts its client watches. `timestamp` is 10-digit seconds or 13-digit milliseconds within 300 s. Answers `{code, message, data}` with the HTTP status equal to `code`: 200, 400, 401, 403, 404, 500. " +
      "SmsForwarder posts to its own URL `/api/report/smsforwarder/{id}` (`xpay client add-smsforwarder`), signed the app's way; each timestamp is accepted once.",
  },
  {
    id: "vmq",
    title: "V免签 (/appHeart, /createOrder, ... at the root)",
    intro:
      "V免签's monitor app and merchant API, GET query or POST form, at the root of the host. No pid: the key of a V免签 client (`xpay client add-vmq`) decides the merchant. `sign` = md5 of the fields' texts concatenated in the order shown, without separators, + key, over the texts as sent. " +
      "Every answer is HTTP 200 `{code, msg, data}`: `code` 1 success (`msg` 成功), -1 failure with V免签's Chinese message. The notification is GET `notifyUrl?payId&param&type&price&reallyPrice&sign` with sign = md5(payId + param + type + price + reallyPrice + key), acknowledged by the body `success`; `param` is sent even when empty, as V免签 sends it (its sign is a concatenation, where an empty `param` adds nothing).",
  },
];

// The template API validates in src/protocols/cashier/lookup.ts with hand-written rules; these
// schemas describe the same parameters for the reference.
const orderId = Opt("platform order number (preferred)", { pattern: "^[0-9A-Za-z_-]{1,64}$" });
const TemplateLookup = paramSchema(
  { order_id: orderId, out_order_id: Opt("merchant order number, with pid (when order_id is absent)", { maxLength: 64 }), pid: Opt("merchant id, with out_order_id", { pattern: "^\\d{1,10}$" }) },
  "order_id, or out_order_id with pid",
);
const TemplateOrderId = paramSchema({ order_id: Opt("platform order number (required)", { pattern: "^[0-9A-Za-z_-]{1,64}$" }) }, "order_id only");
const TemplatePick = paramSchema(
  { order_id: Opt("platform order number (required)", { pattern: "^[0-9A-Za-z_-]{1,64}$" }), pay_type: Opt("the pay type picked (required)", { maxLength: 20 }) },
  "order_id and pay_type",
);

export const ROUTES: RouteDoc[] = [
  // native
  { family: "native", methods: ["POST"], path: "/xpay/order/create", summary: "Create an order", params: native.CreateParams,
    response: "`data`: `trade_no`, `out_trade_no`, `expire_time` (Unix s), `pay_type`, `amount` and `trade_amount` (yuan strings; pay exactly `trade_amount`), `uri` (cashier page), `qrcode` and `scheme` when the account has them." },
  { family: "native", methods: ["POST"], path: "/xpay/order/create-page", summary: "Create an order and redirect to the cashier", params: native.CreateParams,
    response: "302 to `/pay/{trade_no}`; on failure an HTML error page (HTTP 400)." },
  { family: "native", methods: ["POST"], path: "/xpay/order/status", summary: "Order status", params: native.StatusParams,
    response: "`data`: `status` (1 pending, 2 paid, 3 closed, 4 timed out, 5 creation failed), `expire_time`, `return_uri` (paid orders with a return_url)." },
  { family: "native", methods: ["POST"], path: "/xpay/order/cancel", summary: "Close a pending order", params: native.CancelParams,
    response: "`data` null, code 200; 409 when the order is paid, closed or timed out. `timestamp` within 300 s." },
  { family: "native", methods: ["POST"], path: "/xpay/user-channels", summary: "Usable channel accounts", params: native.ChannelsParams,
    response: "`data`: array of `{id, name, code, pay_type, remark, min_amount, max_amount, day_amount}` (cents)." },
  // epay V1
  { family: "epay-v1", methods: ["GET", "POST"], path: "/xpay/epay/submit.php", summary: "Create an order from the payer's browser", params: epayV1.SubmitParams,
    input: "query when it has `pid`, else the body; `_input_charset` is ignored", response: "302 to the cashier page; an HTML error page (HTTP 400) on failure." },
  { family: "epay-v1", methods: ["POST"], path: "/xpay/epay/mapi.php", summary: "Create an order (server to server)", params: epayV1.MapiParams,
    response: "`{code: 1, msg, trade_no, payurl, money, trade_amount, qrcode?, urlscheme?}`; `qrcode`/`urlscheme` only when the payer pays exactly `money`." },
  { family: "epay-v1", methods: ["GET", "POST"], path: "/xpay/epay/api.php", summary: "Merchant queries (act=query, order, orders)", params: epayV1.ApiParams,
    response: "`query`: `{code: 1, pid, active, orders, order_today, order_lastday}`; `order`: `{code: 1, msg, trade_no, out_trade_no, api_trade_no, type, pid, addtime, endtime, name, money, trade_amount, status, param, buyer}`; `orders`: `{code: 1, msg, page, limit, data: [...]}`. `status` per `epay_status_style`: spec 1 pending / 2 paid / 3 closed / 4 timed out / 5 failed, legacy 0 unpaid / 1 paid." },
  // epay V2
  { family: "epay-v2", methods: ["GET", "POST"], path: "/xpay/epayn/api/pay/submit", summary: "Create an order from the payer's browser", params: epayV2.SubmitParams,
    response: "302 to the cashier page (without `type` the payer picks there); an HTML error page (HTTP 400) on failure." },
  { family: "epay-v2", methods: ["POST"], path: "/xpay/epayn/api/pay/create", summary: "Create an order (server to server)", params: epayV2.CreateParams,
    response: "Signed `{code: 0, msg, trade_no, pay_type, pay_info, timestamp, sign, sign_type}`; `pay_type` `jump` (pay_info = cashier URL), `qrcode` or `urlscheme`; `method=scan` is refused." },
  { family: "epay-v2", methods: ["GET", "POST"], path: "/xpay/epayn/api/pay/query", summary: "Order query", params: epayV2.QueryParams,
    response: "Signed `{code: 0, msg, trade_no, out_trade_no, api_trade_no, type, status, pid, money, name, param, buyer, clientip, addtime, endtime, timestamp, sign, sign_type}`; `status` per `epay_status_style`." },
  // hash
  { family: "hashpay", methods: ["POST"], path: "/xpay/hashpay/payment/do.html", summary: "Create an order (also POST /xpay/hashpay)", params: hashpay.CreateParams,
    response: "`{oderid, url_qrcode, url, errcode: \"0\", errmsg: \"\", hash}`: `url` is the cashier, `url_qrcode` a PNG of the QR to scan." },
  { family: "hashpay", methods: ["POST"], path: "/xpay/hashpay/payment/query.html", summary: "Order query", params: hashpay.QueryParams,
    response: "`{errcode, errmsg, data: {status (OD paid, WP waiting, CD closed/timed out), open_order_id, out_trade_order, transaction_id, total_fee, order_title, payment, paid_date}, hash}`; `hash` covers errcode, errmsg and the fields of `data` flattened." },
  // template
  { family: "template", methods: ["POST"], path: "/api/order/info", summary: "Order for the cashier page (call first)", params: TemplateLookup,
    response: "Flat: `subject, out_order_id, order_id, status, amount, trade_amount` (cents), `expire_time, pay_type, pay_type_text, create_time, return_uri` (paid), `pay_type_logo, content, service_qq, pay_tip, pay_payed_wait_time, pay_account_tip {tip, tip_cover}`." },
  { family: "template", methods: ["POST"], path: "/api/order/status", summary: "Order status, polled by the cashier page", params: TemplateLookup,
    response: "Flat: `status, expire_time, return_uri` (paid), `is_auto_open, pay_payed_wait_time`." },
  { family: "template", methods: ["POST"], path: "/api/order/audio", summary: "Spoken prompt settings", params: TemplateLookup,
    response: "Flat: `audio_enable, audio_url, audio_content`." },
  { family: "template", methods: ["POST"], path: "/api/order/qrcode", summary: "QR code and amount to pay", params: TemplateOrderId,
    response: "Flat: `type, qrcode_data, qrcode` (PNG URL), `scheme, uri, content, actual_amount, actual_account, actual_account_type`." },
  { family: "template", methods: ["POST"], path: "/api/order/pay-types", summary: "Pay types the payer can pick", params: TemplateOrderId,
    response: "`{code: 200, message, data: [{pay_type, pay_type_text, pay_type_logo}]}`: the types the merchant's enabled accounts take for this amount, with their names and icons." },
  { family: "template", methods: ["POST"], path: "/api/order/pay-type", summary: "The payer's pick: allocates account and amount", params: TemplatePick,
    response: "`{code: 200, message, data: {order_id, pay_type, pay_type_text, amount, trade_amount}}`; 409 when another type was already picked, 422 when no account can take it." },
  // report
  { family: "report", methods: ["POST"], path: "/api/report/{pid}", summary: "Notification message report", params: report.MessageParams,
    response: "200 `{data: {report_id, outcome (matched, unmatched, duplicate), trade_no, reason}}` whenever the report was accepted; `report_id` null: unmatched past the signer's `report_unmatched_daily`, counted, not stored." },
  { family: "report", methods: ["GET", "POST"], path: "/api/report/{pid}/pc", summary: "Payment amount report", params: report.AmountParams,
    response: "200 `{data: {report_id, outcome, trade_no, reason}}`; `report_id` null: unmatched past the signer's `report_unmatched_daily`, counted, not stored. Only the fields above are stored (extra parameters are signed, never stored)." },
  { family: "report", methods: ["GET", "POST"], path: "/api/report/{pid}/heart", summary: "Client heartbeat", params: report.HeartParams,
    response: "200 `{data: {accounts}}`: how many accounts this client now keeps online." },
  { family: "report", methods: ["POST"], path: "/api/report/smsforwarder/{id}", summary: "SmsForwarder webhook (unchanged app)", params: report.SmsForwarderParams,
    response: "200 `{data: {report_id, outcome (matched, unmatched, duplicate), trade_no, reason}}` whenever it was read (the test button, a chat: unmatched; the same timestamp again: duplicate, `report_id` 0); 401 wrong secret or unknown id; 400 a timestamp outside `smsforwarder_window` or content that is not the default template." },
  { family: "report", methods: ["GET", "POST"], path: "/api/report/third-account", summary: "Third-party account order report", params: report.ThirdAccountParams,
    response: "200 `{data: {report_id, outcome, trade_no, reason}}`; 403 while `third_account_secret` is unset." },
  { family: "report", methods: ["GET", "POST"], path: "/api/report/third-account/heart", summary: "Third-party account heartbeat", params: report.ThirdHeartParams,
    response: "200 `{data: {accounts}}`." },
  // V免签
  { family: "vmq", methods: ["GET", "POST"], path: "/appHeart", summary: "Monitor app heartbeat", params: vmq.HeartParams,
    response: "`{code: 1, msg: \"成功\", data: null}`; a `t` not newer than the last accepted heartbeat is refused (replay)." },
  { family: "vmq", methods: ["GET", "POST"], path: "/appPush", summary: "Monitor app payment push", params: vmq.PushParams,
    response: "`{code: 1, data: {outcome (matched, unmatched, duplicate), orderId, reason}}` whenever the push was stored." },
  { family: "vmq", methods: ["GET", "POST"], path: "/getState", summary: "Monitor state of the signing client", params: vmq.StateParams,
    response: "`data`: `{lastheart, lastpay}` (Unix seconds as text), `jkstate` (\"1\" online, \"0\" offline)." },
  { family: "vmq", methods: ["GET", "POST"], path: "/createOrder", summary: "Create an order", params: vmq.CreateParams,
    response: "`isHtml=1`: 302 to `/pay/{trade_no}`. Else `data`: `payId, orderId` (trade_no), `payType` (1, 2), `price` (as sent), `reallyPrice` (pay exactly this), `payUrl` (QR content), `isAuto` 1, `state` 0, `timeOut` (minutes), `date` (Unix s)." },
  { family: "vmq", methods: ["GET", "POST"], path: "/getOrder", summary: "Order fields", params: vmq.LookupParams,
    response: "The `data` of createOrder; `state` 0 unpaid, 1 paid, -1 closed or expired." },
  { family: "vmq", methods: ["GET", "POST"], path: "/checkOrder", summary: "Paid yet?", params: vmq.LookupParams,
    response: "`{code: -1, msg: 订单未支付 | 订单已过期}`, or `{code: 1, data: return URL}` signed like the notification with two-decimal amounts." },
  { family: "vmq", methods: ["GET", "POST"], path: "/closeOrder", summary: "Close a pending order", params: vmq.CloseParams,
    response: "`{code: 1, data: null}`; `订单状态不允许关闭` when it is no longer pending." },
];

/** One documented field: what the reference table and the OpenAPI schema both show. */
export interface FieldDoc {
  name: string;
  required: boolean;
  pattern?: string;
  maxLength?: number;
  description: string;
}

export function fieldsOf(s: ParamSchema): FieldDoc[] {
  const required = new Set(s.schema.required ?? []);
  return Object.entries(s.schema.properties).map(([name, prop]) => {
    const p = prop as TSchema & { pattern?: string; maxLength?: number; description?: string };
    return { name, required: required.has(name), pattern: p.pattern, maxLength: p.maxLength, description: p.description ?? "" };
  });
}

function operation(r: RouteDoc, method: Method) {
  const fields = fieldsOf(r.params);
  const properties = Object.fromEntries(
    fields.map((f) => [f.name, { type: "string", description: f.description, ...(f.pattern ? { pattern: f.pattern } : {}), ...(f.maxLength ? { maxLength: f.maxLength } : {}) }]),
  );
  const required = fields.filter((f) => f.required).map((f) => f.name);
  const schema = { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: true };
  const pathParams = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string", pattern: "^\\d{1,10}$" } }));
  const op: Record<string, unknown> = {
    tags: [r.family],
    summary: r.summary,
    description: [r.params.schema.description, r.input ? `Parameters: ${r.input}.` : "", r.response].filter(Boolean).join("\n\n"),
    operationId: `${method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(\w)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
    responses: { "200": { description: r.response } },
  };
  if (method === "GET") {
    op.parameters = [...pathParams, ...fields.map((f) => ({ name: f.name, in: "query", required: f.required, description: f.description, schema: properties[f.name] }))];
  } else {
    if (pathParams.length) op.parameters = pathParams;
    op.requestBody = { required: true, content: { "application/x-www-form-urlencoded": { schema }, "application/json": { schema } } };
  }
  return op;
}

/** The `paths` object of the OpenAPI document, from ROUTES. */
export function openapiPaths(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const item = (paths[r.path] ??= {});
    for (const m of r.methods) item[m.toLowerCase()] = operation(r, m);
  }
  return paths;
}

/**
 * GET /openapi/json, and GET /openapi as a redirect to it. The plugin's UI page loads its script
 * from a public CDN without integrity: a gateway serves no third-party code, so there is no UI
 * (the JSON loads into any OpenAPI viewer; docs/reference.md is the readable form).
 */
export function openapiPlugin() {
  const plugin = openapi({
    provider: null,
    documentation: {
      info: { title: "xpay", version: pkg.version, description: "Self-hosted payment gateway: native, epay V1/V2, hash, checkout template and report APIs. Generated from the route schemas; see docs/reference.md." },
      tags: FAMILIES.map((f) => ({ name: f.id, description: `${f.title}. ${f.intro}` })),
      paths: openapiPaths() as never,
    },
    exclude: { paths: ["/openapi", "/openapi/json"] },
  });
  return new Elysia({ name: "xpay-openapi" }).use(plugin).get("/openapi", () => redirect("/openapi/json"), { detail: { hide: true } });
}
