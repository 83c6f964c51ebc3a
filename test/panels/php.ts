// The few PHP functions the panels' epay code runs, written from the PHP manual and php-src
// (ext/standard/url.c, http.c, main/php_variables.c) and independently of src/, so the panel tests
// sign and verify byte for byte as the PHP would. Values are strings, or null where Laravel's
// ConvertEmptyStringsToNull made one (http_build_query skips nulls).
import { createHash } from "node:crypto";

export type PhpArray = Record<string, string | null>;

export const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

/** urlencode(): every byte but A-Z a-z 0-9 `-_.` as %XX (upper case), a space as `+`. */
export function urlencode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.-]/.test(c)) out += c;
    else if (c === " ") out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** urldecode(): `+` is a space, %XX a byte; a broken escape stays as it is. */
export function urldecode(text: string): string {
  const bytes: number[] = [];
  const src = Buffer.from(text, "utf8");
  for (let i = 0; i < src.length; i++) {
    const b = src[i]!;
    if (b === 0x2b) bytes.push(0x20);
    else if (b === 0x25 && i + 2 < src.length && /^[0-9a-fA-F]{2}$/.test(String.fromCharCode(src[i + 1]!, src[i + 2]!))) {
      bytes.push(parseInt(String.fromCharCode(src[i + 1]!, src[i + 2]!), 16));
      i += 2;
    } else bytes.push(b);
  }
  return Buffer.from(bytes).toString("utf8");
}

/** http_build_query($a) with the defaults (PHP_QUERY_RFC1738, `&`): nulls are skipped. */
export function httpBuildQuery(a: PhpArray): string {
  return Object.entries(a)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${urlencode(k)}=${urlencode(v as string)}`)
    .join("&");
}

/** ksort($a): string keys compared byte by byte (none of these keys is numeric). */
export function ksort(a: PhpArray): PhpArray {
  const keys = Object.keys(a).sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
  return Object.fromEntries(keys.map((k) => [k, a[k]!]));
}

/** stripslashes(): a backslash escapes the next character, `\\` becomes `\`, `\0` a NUL. */
export function stripslashes(text: string): string {
  return text.replace(/\\(.?)/gs, (_, c: string) => (c === "0" ? "\0" : c));
}

/**
 * $_GET from a raw query string (php_default_treat_data): split on `&`, a pair without `=` has the
 * value "", both sides urldecode()d, the last of a repeated name wins, and in a name leading spaces
 * are dropped and ` ` and `.` become `_`. Empty values stay, as "": plain PHP keeps them.
 */
export function phpGet(query: string): PhpArray {
  const out: PhpArray = {};
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const key = urldecode(rawKey).replace(/^ +/, "").replace(/[ .]/g, "_");
    if (key === "") continue;
    out[key] = eq < 0 ? "" : urldecode(pair.slice(eq + 1));
  }
  return out;
}

/** Laravel's global TrimStrings (PHP trim()'s characters) and ConvertEmptyStringsToNull. */
export function laravelInput(a: PhpArray): PhpArray {
  const out: PhpArray = {};
  for (const [k, v] of Object.entries(a)) {
    const t = v === null ? null : v.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, "");
    out[k] = t === "" ? null : t;
  }
  return out;
}

/** `$order['total_amount'] / 100` echoed by PHP: an int when exact, else the shortest float text. */
export function phpCentsToYuan(cents: number): string {
  return String(cents / 100); // JS prints the shortest round-trip form, as PHP 7.1+ does: 10, 12.5, 19.99
}

/** (float)"10.00" printed: 10, 12.5. */
export const phpFloatText = (decimal: string) => String(Number.parseFloat(decimal));

/**
 * The plain-PHP verifier of the issue, with no framework in between:
 *   $p = $_GET; $sign = $p['sign']; unset($p['sign'], $p['sign_type']); ksort($p);
 *   md5(urldecode(http_build_query($p)) . $key) === $sign
 * over every field received, empty or not.
 */
export function plainPhpVerify(query: string, key: string): boolean {
  const p = phpGet(query);
  const sign = p.sign;
  delete p.sign;
  delete p.sign_type;
  return sign === md5(urldecode(httpBuildQuery(ksort(p))) + key);
}
