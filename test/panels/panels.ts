// What each panel's epay code does, statement by statement, from its source (see
// shared/spec/clients-compat.md): v2board app/Payments/EPay.php, Xboard plugins-core/Epay/Plugin.php,
// dujiaoka app/Http/Controllers/Pay/YipayController.php + OrderProcessService::completedOrder,
// SSPanel-UIM src/Services/Gateway/Epay.php (mapi.php) + Epay/EpayTool.php + EpayNotify.php.
import { httpBuildQuery, ksort, laravelInput, md5, type PhpArray, phpCentsToYuan, phpFloatText, phpGet, stripslashes, urldecode } from "./php.ts";

export interface EpayConfig {
  url: string;
  pid: string;
  key: string;
  /** Xboard's optional 支付类型 (empty: no `type` is sent). */
  type?: string;
}

export interface PanelOrder {
  trade_no: string;
  /** cents */
  total_amount: number;
  notify_url: string;
  return_url: string;
}

/** v2board EPay::pay(): the browser is sent to this URL (GET submit.php, no `type`). */
export function v2boardPayUrl(config: EpayConfig, order: PanelOrder): string {
  let params: PhpArray = {
    money: phpCentsToYuan(order.total_amount),
    name: order.trade_no,
    notify_url: order.notify_url,
    return_url: order.return_url,
    out_trade_no: order.trade_no,
    pid: config.pid,
  };
  params = ksort(params);
  const str = stripslashes(urldecode(httpBuildQuery(params))) + config.key;
  params.sign = md5(str);
  params.sign_type = "MD5";
  return `${config.url}/submit.php?${httpBuildQuery(params)}`;
}

/** Xboard Epay Plugin::pay(): v2board's six fields, `type` when configured, always clientip and device. */
export function xboardPayUrl(config: EpayConfig, order: PanelOrder, request: { ip: string; userAgent: string }): string {
  let params: PhpArray = {
    money: phpCentsToYuan(order.total_amount),
    name: order.trade_no,
    notify_url: order.notify_url,
    return_url: order.return_url,
    out_trade_no: order.trade_no,
    pid: config.pid,
  };
  if (config.type) params.type = config.type;
  params.clientip = request.ip;
  params.device = /Mobile|Android|Silk\/|Kindle|BlackBerry|Opera Mini|Opera Mobi/i.test(request.userAgent) ? "mobile" : "pc";
  params = ksort(params);
  const str = stripslashes(urldecode(httpBuildQuery(params))) + config.key;
  params.sign = md5(str);
  params.sign_type = "MD5";
  return `${config.url}/submit.php?${httpBuildQuery(params)}`;
}

/**
 * v2board and Xboard notify($request->input()): Laravel's middleware first (empty -> null), then
 * unset sign and sign_type, ksort, and md5 over stripslashes(urldecode(http_build_query())) . key.
 * Neither trade_status nor money is checked. Returns the order numbers, or false.
 */
export function v2boardNotify(input: PhpArray, key: string): false | { trade_no: string; callback_no: string } {
  const params = laravelInput(input);
  const sign = params.sign;
  delete params.sign;
  delete params.sign_type;
  const sorted = ksort(params);
  if (sign !== md5(stripslashes(urldecode(httpBuildQuery(sorted))) + key)) return false;
  return { trade_no: sorted.out_trade_no ?? "", callback_no: sorted.trade_no ?? "" };
}

/** dujiaoka's yipay pay row: merchant_id, merchant_pem (the key), merchant_key (the full submit.php URL). */
export interface YipayRow {
  merchant_id: string;
  merchant_pem: string;
  merchant_key: string;
}

/** The `$key=$val` join over non-empty values (loose `== ""`), without sign and sign_type, no encoding. */
function dujiaokaSignText(data: PhpArray): string {
  return Object.entries(ksort(data))
    .filter(([k, v]) => k !== "sign" && k !== "sign_type" && v !== null && v !== "")
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

/**
 * YipayController::gateway(): an auto-submitted `<form method='get' action=merchant_key>`; the
 * browser sends its inputs form-encoded (URLSearchParams is the browser's serializer).
 */
export function dujiaokaFormUrl(row: YipayRow, payway: string, order: { order_sn: string; title: string; actual_price: string }, urls: { return_url: string; notify_url: string }): string {
  const parameter: PhpArray = ksort({
    pid: row.merchant_id,
    type: payway,
    out_trade_no: order.order_sn,
    return_url: urls.return_url,
    notify_url: urls.notify_url,
    name: order.title,
    money: phpFloatText(order.actual_price),
    sign: row.merchant_pem,
    sign_type: "MD5",
  });
  parameter.sign = md5(dujiaokaSignText(parameter) + row.merchant_pem);
  const form = new URLSearchParams(Object.entries(parameter).map(([k, v]) => [k, v ?? ""]));
  return `${row.merchant_key}?${form}`;
}

/**
 * YipayController::notifyUrl() (route GET only) and completedOrder(): `fail` for a bad sign; an
 * exception (HTTP 500) for an order already completed or a money that bccomp(…, 2) says differs.
 */
export function dujiaokaNotify(method: string, query: string, pem: string, order: { actual_price: string; completed: boolean }): { status: number; body: string } {
  if (method !== "GET") return { status: 405, body: "Method Not Allowed" };
  const data = laravelInput(phpGet(query));
  if (!data.trade_no || md5(dujiaokaSignText(data) + pem) !== data.sign) return { status: 200, body: "fail" };
  if (order.completed) return { status: 500, body: "order_status_completed" };
  // completedOrder(string $orderSN, float $actualPrice): the money string is cast to float first.
  if (!bccompEqual2(order.actual_price, String(Number.parseFloat(data.money ?? "0")))) return { status: 500, body: "order_inconsistent_amounts" };
  order.completed = true;
  return { status: 200, body: "success" };
}

/** bccomp($a, $b, 2) === 0: both truncated to 2 decimals. */
function bccompEqual2(a: string, b: string): boolean {
  const cents = (s: string) => {
    const [i, f = ""] = s.split(".");
    return BigInt(i!) * 100n + BigInt((f + "00").slice(0, 2));
  };
  return cents(a) === cents(b);
}

/** SSPanel's epay settings: apiurl (ends with `/`), partner, key. */
export interface SspanelEpay {
  apiurl: string;
  partner: string;
  key: string;
}

/** SSPanel's createLinkstring(): `k=v&...` in the array's order, every value kept, then stripslashes. */
const createLinkstring = (para: PhpArray) =>
  stripslashes(
    Object.entries(para)
      .map(([k, v]) => `${k}=${v ?? ""}`)
      .join("&"),
  );

/**
 * Epay::purchase(): the form body of its server-side POST to apiurl . 'mapi.php'. The sign is
 * buildRequestMysign(argSort($data)) without paraFilter, so an empty clientip is signed as `clientip=`.
 */
export function sspanelMapiBody(epay: SspanelEpay, o: { type: string; tradeno: string; price: string; notify_url: string; return_url: string; appName: string; remoteAddr: string }): string {
  const data: PhpArray = {
    pid: epay.partner.trim(),
    type: o.type,
    out_trade_no: o.tradeno,
    notify_url: o.notify_url,
    return_url: o.return_url,
    name: o.tradeno,
    money: o.price,
    sitename: o.appName,
    clientip: o.remoteAddr,
  };
  data.sign = md5(createLinkstring(ksort(data)) + epay.key);
  data.sign_type = "MD5";
  return httpBuildQuery(data); // Guzzle form_params
}

/** EpayNotify::verifyNotify() over $_GET (paraFilter drops '' and sign/sign_type), then trade_status. */
export function sspanelNotify(query: string, key: string): string {
  const get = phpGet(query);
  const filtered: PhpArray = {};
  for (const [k, v] of Object.entries(get)) if (k !== "sign" && k !== "sign_type" && v !== "") filtered[k] = v;
  const ok = md5(createLinkstring(ksort(filtered)) + key) === get.sign;
  return ok && get.trade_status === "TRADE_SUCCESS" ? "success" : "failed";
}
