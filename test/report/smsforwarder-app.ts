// SmsForwarder's Webhook sender, rebuilt byte for byte from its source (pppscn/SmsForwarder:
// WebhookUtils.kt, MsgInfo.kt, NotificationService.kt, WebhookFragment.kt; facts in
// ../shared/spec/clients-compat.md) and written independently of xpay's codec: the tests send what
// the app sends, not what xpay expects.
import { createHmac } from "node:crypto";

/** android.util.Base64 NO_WRAP of HmacSHA256(key = secret, message = timestamp + "\n" + secret). */
export function appSignBase64(secret: string, timestamp: number): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(`${timestamp}\n${secret}`, "utf8").digest("base64");
}

/** java.net.URLEncoder.encode(s, "UTF-8"): space as "+", `a-zA-Z0-9.-*_` kept, the rest %XX. */
export function javaUrlEncode(s: string): string {
  let out = "";
  for (const byte of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9.\-*_]/.test(c)) out += c;
    else if (c === " ") out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The `sign` value the app puts in a field: the Base64, URL-encoded once. */
export const appSign = (secret: string, timestamp: number) => javaUrlEncode(appSignBase64(secret, timestamp));

/** OkHttp 3.12 FormBody: UTF-8 bytes; letters, digits and `-._*` literal; everything else %XX (space too). */
export function okhttpFormEncode(s: string): string {
  let out = "";
  for (const byte of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9.\-_*]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export interface AppNotification {
  pkg: string;
  title: string;
  text: string;
  /** yyyy-MM-dd HH:mm:ss, the phone's zone. */
  time?: string;
  uid?: number;
  device?: string;
}

/** MsgInfo.getContentForSend with the default template for an app notification, then trim(). */
export function defaultAppContent(n: AppNotification): string {
  return `${n.pkg}\n${n.text}\n${n.title}\nUID：${n.uid ?? 10234}\n${n.time ?? "2026-11-25 20:00:00"}\n${n.device ?? ""}`.trim();
}

/** The test button: an SMS from 19999999999 in the default SMS template (SubId line). */
export function testButtonContent(channel = "测试通道", time = "2026-11-25 20:00:00"): { from: string; content: string } {
  return { from: "19999999999", content: `19999999999\n【${channel}】恭喜您，该发送通道测试成功，请继续添加转发规则！\nSIM1_测试运营商_18888888888\nSubId：0\n${time}\n`.trim() };
}

/** The default POST body: from, content, timestamp, sign (sign already URL-encoded, so twice on the wire). */
export function defaultFormBody(from: string, content: string, timestamp: number, secret: string): string {
  return [["from", from], ["content", content], ["timestamp", String(timestamp)], ["sign", appSign(secret, timestamp)]]
    .map(([k, v]) => `${k}=${okhttpFormEncode(v!)}`)
    .join("&");
}

/**
 * The JSON mode with the setup page's template: [from], [receive_time], [timestamp] and [sign]
 * inserted raw, [title], [org_content] and [device_mark] through Gson's escaping (htmlSafe).
 */
export function jsonTemplateBody(template: string, n: AppNotification, timestamp: number, secret: string): string {
  const gson = (s: string) => {
    const j = JSON.stringify(s).slice(1, -1);
    return j.replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/=/g, "\\u003d").replace(/'/g, "\\u0027");
  };
  return template
    .replace("[from]", n.pkg)
    .replace("[title]", gson(n.title))
    .replace("[org_content]", gson(n.text))
    .replace("[receive_time]", n.time ?? "2026-11-25 20:00:00")
    .replace("[device_mark]", gson(n.device ?? ""))
    .replace("[timestamp]", String(timestamp))
    .replace("[sign]", appSign(secret, timestamp));
}

export const ALIPAY = "com.eg.android.AlipayGphone";
export const WECHAT = "com.tencent.mm";
