import type { sendErrorZh } from "./send-error.zh.ts";

export const sendErrorEn: Record<keyof typeof sendErrorZh, string> = {
  "senderr.refused": "Connection refused: nothing listens on the merchant's port ({code})",
  "senderr.reset": "The merchant's server dropped the connection ({code})",
  "senderr.unreachable": "The merchant's server could not be reached ({code})",
  "senderr.tls": "HTTPS certificate or handshake failed ({code})",
  "senderr.timeout": "No answer within {ms} ms (timed out)",
  "senderr.http": "The merchant answered HTTP {status}",
  "senderr.redirect": "The merchant answered a redirect (HTTP {status}), not followed",
  "senderr.not_ack": "The merchant answered, but not with the agreed acknowledgement (such as success)",
  "senderr.unresolved": "Cannot resolve {host}",
  "senderr.private": "The notify URL points to a private or reserved address; not sent",
  "senderr.bad_url": "The notify URL is not a valid http(s) URL",
  "senderr.gone": "The order or the merchant no longer exists",
  "senderr.no_key": "The key that signs this order's notifications no longer exists",
};
