// The two V免签 callers, written the way their own code builds requests (read from vmqApk's
// NeNotificationService2 and dujiaoka's VpayController), with md5 from node:crypto only.
import { createHash } from "node:crypto";
import { type Harness, seed } from "../helpers.ts";

export const KEY = "4b5a3c2d1e0f9a8b7c6d5e4f3a2b1c0d";
export const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

/** Java's Double.toString for the amounts a notification shows: "10.0", "9.99", "1.0E7". */
export function javaDouble(x: number): string {
  if (x >= 1e-3 && x < 1e7) {
    const s = String(x);
    return s.includes(".") ? s : `${s}.0`;
  }
  const [mantissa, exp] = x.toExponential().split("e");
  return `${mantissa!.includes(".") ? mantissa : `${mantissa}.0`}E${Number(exp)}`;
}

/** The app: "http://" + host + "/appPush?t=" + t + "&type=" + type + "&price=" + price + "&sign=" + sign, nothing encoded. */
export function appPushUrl(t: string, type: number, price: number, key = KEY): string {
  const p = javaDouble(price);
  return `http://localhost/appPush?t=${t}&type=${type}&price=${p}&sign=${md5(type + p + t + key)}`;
}

export function appHeartUrl(t: string, key = KEY): string {
  return `http://localhost/appHeart?t=${t}&sign=${md5(t + key)}`;
}

/**
 * dujiaoka's gateway(): payId = date('YmdHis') . rand(1, 65535), price = (float) actual_price,
 * param = its order_sn, isHtml = 1, type 1 (vwx) or 2 (vzfb); sign = md5(payId . param . type .
 * price . key) with PHP's float-to-string ("10" for 10.0); sent as createOrder?http_build_query.
 */
export function dujiaokaCreateUrl(base: string, o: { orderSn: string; actualPrice: number; type: 1 | 2; notifyUrl: string; payId?: string }, key = KEY): string {
  const payId = o.payId ?? `20260101080000${1 + Math.floor(Math.random() * 65535)}`;
  const price = String(o.actualPrice); // PHP 7.1+: (string)(float)10.00 === "10", 12.3 -> "12.3"
  const parameter: Record<string, string> = {
    payId,
    price,
    param: o.orderSn,
    returnUrl: `http://shop.test/pay/vpay/return_url?order_id=${o.orderSn}`,
    notifyUrl: o.notifyUrl,
    isHtml: "1",
    type: String(o.type),
  };
  parameter.sign = md5(parameter.payId! + parameter.param + parameter.type + parameter.price + key);
  return `${base}createOrder?${new URLSearchParams(parameter)}`;
}

/** dujiaoka's notifyUrl(): md5(payId . param . type . price . reallyPrice . key) over what arrived. */
export function dujiaokaAccepts(q: Record<string, string>, key = KEY): boolean {
  return md5(q.payId! + q.param! + q.type! + q.price! + q.reallyPrice! + key) === q.sign;
}

/** Merchant 1001 with an Alipay account (helpers.seed), a WeChat account, and V免签 client phone1. */
export async function seedVmq(h: Harness) {
  const base = await seed(h);
  const wx = await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx_qr", name: "WeChat A", qrcode: "wxp://f2f0wx0001", now: h.clock.now() });
  const added = await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone1", key: KEY, accountIds: [], now: h.clock.now() });
  if (added.kind !== "added") throw new Error(added.reason);
  await vmqUrls(h, {});
  return { ...base, wx, client: added.client };
}

/**
 * Where the operator lets merchant 1001's V免签 orders go (issue 27 item 5): notifyUrl and returnUrl
 * are unsigned, so a caller's own is used only when it is the configured one or on a listed host.
 * dujiaoka's return links are on shop.test; its notify URL is the test's receiver.
 */
export async function vmqUrls(h: Harness, o: { notifyUrl?: string; returnUrl?: string; hosts?: string }) {
  const settings: Record<string, string> = { vmq_url_hosts: o.hosts ?? "shop.test" };
  if (o.notifyUrl) settings.vmq_notify_url = o.notifyUrl;
  if (o.returnUrl) settings.vmq_return_url = o.returnUrl;
  await h.gw.store.updateMerchant(1001, { settings });
}

export async function get(h: Harness, url: string) {
  const res = await h.app.handle(new Request(url));
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {}
  return { res, status: res.status, text, body };
}
