// A notification attempt's error (core/notify/deliver.ts, target.ts write it in English for the
// CLI and the logs) in the page's language. Network errors arrive as Bun words them
// ("ECONNREFUSED: Unable to connect. Is the computer able to access the url?"): the code is kept
// in the words, the rest replaced. A text no rule knows is shown as it is, so nothing disappears.
import type { TextKey, Translate } from "./i18n/index.ts";

type Vars = Record<string, string | number>;
const RULES: [RegExp, TextKey, (m: RegExpExecArray) => Vars][] = [
  [/^(?:connect )?(ECONNREFUSED)\b/, "senderr.refused", (m) => ({ code: m[1]! })],
  [/^(?:connect )?(ECONNRESET|EPIPE|ECONNABORTED)\b/, "senderr.reset", (m) => ({ code: m[1]! })],
  [/^(?:connect )?(EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ConnectionClosed|FailedToOpenSocket)\b/, "senderr.unreachable", (m) => ({ code: m[1]! })],
  [/^(?:[\w ]*?)(CERT_\w+|UNABLE_TO_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_\w+|ERR_SSL_\w+)\b/, "senderr.tls", (m) => ({ code: m[1]! })],
  [/^timed out after (\d+) ms$/, "senderr.timeout", (m) => ({ ms: Number(m[1]) })],
  [/^HTTP (\d{3})$/, "senderr.http", (m) => ({ status: m[1]! })],
  [/^redirect \(HTTP (\d{3})\) not followed$/, "senderr.redirect", (m) => ({ status: m[1]! })],
  [/^response is not an acknowledgement$/, "senderr.not_ack", () => ({})],
  [/^cannot resolve (\S+):/, "senderr.unresolved", (m) => ({ host: m[1]! })],
  [/^notify_url .*(?:private|reserved|loopback)/, "senderr.private", () => ({})],
  [/^notify_url is not a valid http\(s\) URL$/, "senderr.bad_url", () => ({})],
  [/^order or merchant no longer exists$/, "senderr.gone", () => ({})],
  [/^the key that signs this order's notifications no longer exists$/, "senderr.no_key", () => ({})],
];

export function sendErrorText(t: Translate, error: string): string {
  for (const [re, key, vars] of RULES) {
    const m = re.exec(error);
    if (m) return t(key, vars(m));
  }
  return error;
}
