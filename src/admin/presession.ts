// The login form's CSRF token, before any session exists: a signed double submit. The browser gets
// a random `xpay_pre` cookie (HttpOnly, SameSite=Strict) and the form carries HMAC(form key, that
// value); a forged cross-site POST has neither (and fails the Origin check first). The form key is
// random, made once per database (settings row `admin_form_key`, never listed or logged), so every
// server on the same file accepts the others' forms.
import { createHmac, randomBytes } from "node:crypto";
import { sameSecret } from "../core/admin/sessions.ts";
import type { Gateway } from "../core/gateway.ts";
import { readCookie, setCookie } from "./http.ts";

export const PRE_COOKIE = "xpay_pre";

const keys = new WeakMap<Gateway, Promise<string>>();

/** The database's console form key (also signs device cookies, under another label: device.ts). */
export function formKey(gw: Gateway): Promise<string> {
  let key = keys.get(gw);
  if (!key) {
    key = gw.store.initSetting("admin_form_key", randomBytes(32).toString("hex"));
    keys.set(gw, key);
  }
  return key;
}

const sign = (key: string, pre: string) => createHmac("sha256", key).update(`login:${pre}`).digest("base64url");

/** The cookie to keep (or set) and the token for the form. */
export async function preSession(gw: Gateway, request: Request, secure: boolean): Promise<{ token: string; setCookie: string | null }> {
  const current = readCookie(request, PRE_COOKIE);
  const pre = current && /^[A-Za-z0-9_-]{22}$/.test(current) ? current : randomBytes(16).toString("base64url");
  const cookie = pre === current ? null : setCookie(PRE_COOKIE, pre, { secure });
  return { token: sign(await formKey(gw), pre), setCookie: cookie };
}

export async function preSessionValid(gw: Gateway, request: Request, token: string): Promise<boolean> {
  const pre = readCookie(request, PRE_COOKIE);
  if (!pre || !/^[A-Za-z0-9_-]{22}$/.test(pre)) return false;
  return sameSecret(sign(await formKey(gw), pre), token);
}
