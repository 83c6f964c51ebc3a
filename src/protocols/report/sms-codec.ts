// SmsForwarder's webhook (pppscn/SmsForwarder, WebhookUtils.kt), read as the app sends it: pure
// functions for its signature, its two body shapes and its default content template. The route
// (smsforwarder.ts) does the HTTP. Facts: ../shared/spec/clients-compat.md.
//
// sign = URLEncoder(Base64(HMAC-SHA256(key = secret, message = timestamp + "\n" + secret))); the
// default POST form-encodes that again, so after one form decode it still holds %2B/%2F/%3D, while
// the GET and JSON modes carry it encoded once. It covers the timestamp only: the route accepts
// each timestamp once, within a short window, and the text still has to pass the anchored
// payment formats.
import type { ForwardedMessage } from "../../core/report-rules.ts";
import { exactEqual, hmacSha256Base64 } from "../signing.ts";
import type { Params } from "../params.ts";

/** Base64 of the app's HMAC (before its URL-encoding). */
export const smsSign = (secret: string, timestamp: string): string => hmacSha256Base64(secret, `${timestamp}\n${secret}`);

/** The sign as the app puts it in a field (Java's URLEncoder: only `+`, `/`, `=` occur in Base64). */
export const smsSignField = (secret: string, timestamp: string): string =>
  smsSign(secret, timestamp).replace(/\+/g, "%2B").replace(/\//g, "%2F").replace(/=/g, "%3D");

/** Accepts the sign encoded once (JSON, or the form decoded once) or plain (GET decoded). */
export function verifySmsSign(secret: string, timestamp: string, sent: string): boolean {
  let plain = sent.replace(/ /g, "+"); // a query's `+` read as a space by a form decoder
  if (plain.includes("%")) {
    try {
      plain = decodeURIComponent(plain);
    } catch {
      return false;
    }
  }
  return exactEqual(plain, smsSign(secret, timestamp));
}

/** The app's default template, app notifications (UID) and SMS (SubId); the colon is full-width. */
const ID_LINE = /^(UID|SubId)：/;
const RECEIVE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

export interface SmsMessage {
  /** app: a notification (from = its package); sms: a text message (from = the sender's number). */
  type: "app" | "sms";
  from: string;
  title: string;
  text: string;
  receiveTime: string;
  device: string;
}

/**
 * `{{FROM}}\n{{SMS}}\n{{CARD_SLOT}}\nUID：{{UID}}\n{{RECEIVE_TIME}}\n{{DEVICE_NAME}}`, trimmed. The
 * text may hold line breaks, so it is read from both ends: the first line is the sender, the last
 * `UID：`/`SubId：` line and what follows it (the time, then the device name if any) close it, the
 * line before that is the title, everything between is the text. Null when it is not that shape.
 */
export function parseDefaultContent(content: string): SmsMessage | null {
  const lines = content.replace(/\r\n?/g, "\n").split("\n");
  let id = -1;
  for (let i = lines.length - 1; i >= 2; i--) {
    if (ID_LINE.test(lines[i]!)) {
      id = i;
      break;
    }
  }
  if (id < 2) return null;
  const tail = lines.slice(id + 1);
  if (tail.length < 1 || tail.length > 2 || !RECEIVE_TIME.test(tail[0]!)) return null;
  return {
    type: lines[id]!.startsWith("UID") ? "app" : "sms",
    from: lines[0]!,
    title: lines[id - 1]!,
    text: lines.slice(1, id - 1).join("\n"),
    receiveTime: tail[0]!,
    device: tail[1] ?? "",
  };
}

export type SmsRequest = { ok: true; timestamp: string; sign: string; message: SmsMessage } | { ok: false; reason: string };

/** The fields of a request in either mode: the default form (from, content) or the JSON template. */
export function readSmsRequest(p: Params): SmsRequest {
  const timestamp = p.timestamp ?? "";
  const sign = p.sign ?? "";
  if (!/^\d{13}$/.test(timestamp)) return { ok: false, reason: "timestamp must be the phone's clock in milliseconds (13 digits)" };
  if (sign === "") return { ok: false, reason: "missing sign: set the same secret in the app's Webhook (Secret) as in xpay" };
  if (p.content !== undefined) {
    const m = parseDefaultContent(p.content);
    if (!m) return { ok: false, reason: "content is not SmsForwarder's default template; clear 消息模板 (or use the JSON template the setup page gives)" };
    if (p.from !== undefined && p.from !== m.from) return { ok: false, reason: "from differs from the first line of content" };
    return { ok: true, timestamp, sign, message: m };
  }
  if (p.text === undefined || p.from === undefined) return { ok: false, reason: "missing content (default template) or from and text (JSON template)" };
  const m: SmsMessage = { type: /^[a-zA-Z][\w]*(\.[\w]+)+$/.test(p.from) ? "app" : "sms", from: p.from, title: p.title ?? "", text: p.text, receiveTime: p.receive_time ?? "", device: p.device ?? "" };
  return { ok: true, timestamp, sign, message: m };
}

/** As the spec's message report carries it: a notification's package, title and text. */
export function forwardedOf(m: SmsMessage): ForwardedMessage {
  return m.type === "app"
    ? { package_name: m.from, title: m.title, msg: m.text, receive_time: m.receiveTime, device_name: m.device }
    : { from: m.from, title: m.title, msg: m.text, receive_time: m.receiveTime, device_name: m.device };
}
