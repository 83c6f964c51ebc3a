// What a monitoring client is configured with, shared by the console's setup helper and the CLI:
// the report URLs of a merchant, the V免签 app's HOST/KEY text (the CLI's `client add-vmq` and
// `show-vmq` print it, the console renders it as a QR code), and the audited reveal of the
// secret each one signs with. A secret is shown only on that explicit action (POST, audited with
// who, when and from where; the value itself never enters the log).
import { type Actor, audit } from "../admin/audit.ts";
import type { Gateway } from "../gateway.ts";

export interface ReportUrls {
  /** POST a forwarded notification (SmsForwarder-style webhook). */
  message: string;
  /** GET or POST an amount the client read itself. */
  amount: string;
  heart: string;
  thirdAccount: string;
  thirdAccountHeart: string;
}

export function reportUrls(base: string, pid: number): ReportUrls {
  const root = `${base.replace(/\/+$/, "")}/api/report`;
  return {
    message: `${root}/${pid}`,
    amount: `${root}/${pid}/pc`,
    heart: `${root}/${pid}/heart`,
    thirdAccount: `${root}/third-account`,
    thirdAccountHeart: `${root}/third-account/heart`,
  };
}

/** A keyed client's own report URLs: the pid in them is its owner's (0: the operator's). */
export function clientReportUrls(base: string, c: { id: number; kind: string; pid: number }): { smsforwarder: string } & ReportUrls {
  return { ...reportUrls(base, c.pid), smsforwarder: `${base.replace(/\/+$/, "")}/api/report/smsforwarder/${c.id}` };
}

/**
 * The JSON template (SmsForwarder's 消息模板) the setup page gives: every field the app fills for a
 * notification, the text unformatted ([org_content]). The default form needs no template.
 */
export const SMS_JSON_TEMPLATE =
  '{"from":"[from]","title":"[title]","text":"[org_content]","receive_time":"[receive_time]","device":"[device_mark]","timestamp":"[timestamp]","sign":"[sign]"}';

/** What would stop a phone reaching xpay at a base URL (the CLI prints noteText, the console its own words). */
export type PhoneNote =
  | { code: "path"; host: string; path: string }
  | { code: "https"; host: string }
  | { code: "loopback"; hostname: string }
  | { code: "plain_http"; host: string };

/** Where a phone reaches xpay from a base URL, with what would stop it. */
export type PhonePlace = { ok: true; host: string; base: string; notes: PhoneNote[] } | { ok: false; problem: "not_url" | "not_http" };

/** An http(s) base URL with the notes every phone shares (loopback), or why it is not one. */
function place(given: string, notesFor: (url: URL, path: string) => PhoneNote[], base: (url: URL, path: string) => string): PhonePlace {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return { ok: false, problem: "not_url" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, problem: "not_http" };
  const path = url.pathname.replace(/\/+$/, "");
  const notes = notesFor(url, path);
  if (["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) notes.push({ code: "loopback", hostname: url.hostname });
  return { ok: true, host: url.host, base: base(url, path), notes };
}

/**
 * SmsForwarder reaches any URL; its signature covers only the timestamp, so over plain HTTP a
 * listener reads the secret's use and the text: HTTPS is advised (the app accepts any certificate).
 */
export const webhookPlace = (given: string): PhonePlace =>
  place(given, (url) => (url.protocol === "http:" ? [{ code: "plain_http", host: url.host }] : []), (url, path) => `${url.origin}${path}`);

/** The V免签 app splits HOST/KEY on "/" and always calls http://HOST/... at the host's root. */
export const vmqPlace = (given: string): PhonePlace =>
  place(
    given,
    (url, path) => [
      ...(path !== "" ? [{ code: "path" as const, host: url.host, path }] : []),
      ...(url.protocol === "https:" ? [{ code: "https" as const, host: url.host }] : []),
    ],
    (url, path) => `${url.origin}${path}/`,
  );

/** The CLI's line for a note. */
export function noteText(n: PhoneNote): string {
  if (n.code === "path") return `the base URL has a path (${n.path}); the app calls http://${n.host}/appHeart at the root of the host, so route /appHeart, /appPush and /getState there to xpay`;
  if (n.code === "https") return `the app always speaks plain HTTP: http://${n.host}/appHeart must reach xpay (shops may keep https)`;
  if (n.code === "plain_http") return `http://${n.host} is plain HTTP: anyone on the way reads what the phone forwards; serve xpay over https (see the operator guide, TLS)`;
  return `${n.hostname} is this machine only: a phone cannot reach it; give --base-url with the address the phone uses`;
}

/** What V免签's 扫码配置 reads (and 手动配置 takes): HOST/KEY. */
export const vmqConfigText = (host: string, key: string): string => `${host}/${key}`;

/** The merchant's AppSecret, shown to `actor` and audited; null when there is no such merchant. */
export async function revealMerchantSecret(gw: Gateway, actor: Actor, pid: number): Promise<string | null> {
  const m = await gw.store.getMerchant(pid);
  if (!m) return null;
  await audit(gw, { actor, action: "merchant.reveal_secret", target: `merchant:${pid}` });
  return m.secret;
}
