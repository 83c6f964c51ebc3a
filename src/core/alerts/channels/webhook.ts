// The generic webhook: the message as JSON, signed. X-Xpay-Signature is `sha256=` and the hex
// HMAC-SHA256 of the raw body under the channel's secret; X-Xpay-Timestamp is the Unix time of the
// attempt in seconds, and the same value is inside the signed body (`timestamp`), so a receiver that
// checks the signature can also refuse an old replay. docs/operator-guide.md shows the check.
import { problem } from "../../problem.ts";
import { createHmac } from "node:crypto";
import type { AlertMessage } from "../types.ts";
import { type ChannelKind, JSON_HEADERS } from "./kind.ts";

/** The signature header's value for a raw body. */
export function webhookSignature(secret: string, rawBody: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody, "utf8").digest("hex")}`;
}

/** The JSON body: everything in the message, in fixed field order, plus the attempt's timestamp. */
export function webhookBody(m: AlertMessage, nowMs: number): string {
  const timestamp = Math.floor(nowMs / 1000);
  return JSON.stringify({
    source: "xpay", event: m.event, condition: m.condition, key: m.key, title: m.title, text: m.text,
    since: m.since, at: Math.floor(m.at / 1000), timestamp, refs: m.refs, command: m.command, ...(m.items ? { items: m.items } : {}),
  });
}

export const webhook: ChannelKind = {
  type: "webhook",
  label: "generic webhook",
  fields: [
    { key: "url", help: "where to POST the alert JSON (http or https)", required: true },
    { key: "secret", help: "HMAC-SHA256 key of X-Xpay-Signature (default: a random one, printed once)", secret: true },
  ],
  check: (c) => (c.secret && c.secret.length >= 16 ? null : problem("alert.secret_short", "--secret must be at least 16 characters (leave it out to get a random one)")),
  request(c, m, nowMs) {
    const body = webhookBody(m, nowMs);
    const headers = { ...JSON_HEADERS, "x-xpay-timestamp": String(Math.floor(nowMs / 1000)), "x-xpay-signature": webhookSignature(c.secret!, body) };
    return { method: "POST", url: c.url!, headers, body };
  },
  // Any 2xx acknowledges: the receiver is the operator's own.
  answer: () => ({ ok: true, error: "" }),
};
