// Field rules every family shares for a new order, so one order means the same thing whichever
// protocol created it. Each check returns the message a merchant's developer needs to fix the call.
export const PAY_TYPE_PATTERN = /^[a-z][a-z0-9_]{1,19}$/;
/**
 * The pay types xpay knows: the report rules recognise their payment messages and the cashier
 * names them. A receiving account must have one of them (an account of another type could never
 * be reported paid by a phone); orders still accept any PAY_TYPE_PATTERN name and fail with "no
 * account" when none takes it, as before.
 */
export const PAY_TYPES = ["alipay", "wxpay", "qqpay"] as const;
export type PayType = (typeof PAY_TYPES)[number];

export function isKnownPayType(v: string): v is PayType {
  return (PAY_TYPES as readonly string[]).includes(v);
}
const OUT_TRADE_NO = /^[\x21-\x7e]{1,64}$/;
const URL_PATTERN = /^https?:\/\/[^\s]+$/i;

export function checkOutTradeNo(v: string): string | null {
  return OUT_TRADE_NO.test(v) ? null : "out_trade_no must be 1-64 printable ASCII characters without spaces";
}

export function checkPayType(v: string): string | null {
  return PAY_TYPE_PATTERN.test(v) ? null : `unsupported pay type: ${v.slice(0, 20)}`;
}

// 128: the hash protocol's `title` limit, the longest any family allows (native's schema says 127).
export function checkName(v: string, max = 128): string | null {
  if (v.trim() === "") return "name must not be empty";
  return [...v].length <= max ? null : `name must be at most ${max} characters`;
}

export function checkUrl(field: string, v: string): string | null {
  if (v === "") return null;
  if (v.length > 1024) return `${field} must be at most 1024 characters`;
  return URL_PATTERN.test(v) ? null : `${field} must be an http(s) URL`;
}

export function checkParam(v: string): string | null {
  return v.length <= 1024 ? null : "param must be at most 1024 characters";
}

/**
 * Signed texts are `k=v&k=v` over raw values, sorted by key. A value holding `&` followed by
 * `key=` (any text without `&` before the `=`: PHP even turns spaces and dots in a name into `_`)
 * lets whoever chose it regroup a signed notification or return link of this order into a valid
 * one with other fields: a payer who types `x&out_trade_no=B&param=z` into a shop's name field
 * takes order A's signed return link from /api/order/info and presents it as "B paid". So such a
 * value is refused at create, in every family; a plain `&` (`商品+&x`, `Tom & Jerry`) cannot start
 * a field and stays allowed. The check is the same one V2's signer applies to its platform key.
 */
export const KEY_AFTER_AMPERSAND = /&[^&]*=/;

/** The message names the field only: hash errors are hashed, so the value is never echoed. */
export function checkNoKeyText(field: string, v: string): string | null {
  return KEY_AFTER_AMPERSAND.test(v)
    ? `${field} must not contain an ampersand followed by key= text: signed notifications and return links would read it as other fields`
    : null;
}

/**
 * The caller's texts of a new order that come back in a signed text (notification, return link,
 * query): every field but the URLs, whose own query strings stay theirs and are never signed.
 */
export function checkSignedTexts(o: { outTradeNo: string; name: string; param: string; clientip: string; extra: Record<string, string> }): string | null {
  const fields: [string, string][] = [["out_trade_no", o.outTradeNo], ["name", o.name], ["param", o.param], ["clientip", o.clientip]];
  for (const [k, v] of Object.entries(o.extra)) if (!k.endsWith("_url")) fields.push([k, v]);
  for (const [k, v] of fields) {
    const bad = checkNoKeyText(k, v);
    if (bad) return bad;
  }
  return null;
}

/** pc / mobile / wap (and the V2 extras); anything else is judged from the user agent. */
export function deviceFrom(given: string, userAgent: string): string {
  if (given) return given.slice(0, 16);
  return /Mobile|Android|iPhone|iPad|MicroMessenger|AlipayClient|QQ\//i.test(userAgent) ? "mobile" : "pc";
}
