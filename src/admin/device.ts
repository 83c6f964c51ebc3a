// Known browsers. A successful login sets `xpay_device`: a random id, the operator's id and
// HMAC(form key, both), for 180 days (HttpOnly, SameSite=Strict, Path=/admin). It opens nothing:
// it only tells the login throttle that this browser logged in as that operator before, so a
// flood of wrong passwords on the name, which locks strangers out, never locks it out
// (core/admin/throttle.ts). Unguessable (128 random bits) and unforgeable (the key is random per
// database and never leaves it), it needs no table, and every instance on one database accepts
// the others' cookies. A live session of the operator counts as known too. The throttle's counter
// key is a hash of the id, so the counters never hold a cookie's value.
import { createHash, createHmac, randomBytes } from "node:crypto";
import type { KnownBrowser } from "../core/admin/login.ts";
import { resumeSession, sameSecret } from "../core/admin/sessions.ts";
import type { Gateway } from "../core/gateway.ts";
import { SESSION_COOKIE } from "./guard.ts";
import { readCookie, setCookie } from "./http.ts";
import { formKey } from "./presession.ts";

export const DEVICE_COOKIE = "xpay_device";
export const DEVICE_MAX_AGE = 180 * 86_400;

const VALUE = /^([A-Za-z0-9_-]{22})\.([1-9]\d{0,14})\.([A-Za-z0-9_-]{43})$/;

const sign = (key: string, id: string, operatorId: number) => createHmac("sha256", key).update(`device:${id}:${operatorId}`).digest("base64url");
const counterKey = (id: string) => `d:${createHash("sha256").update(id).digest("hex").slice(0, 32)}`;

/** The device id of a genuine cookie, with the operator it logged in as; null for anything else. */
async function deviceOf(gw: Gateway, request: Request): Promise<{ id: string; operatorId: number } | null> {
  const m = VALUE.exec(readCookie(request, DEVICE_COOKIE) ?? "");
  if (!m) return null;
  const [, id, op, mac] = m as unknown as [string, string, string, string];
  return sameSecret(sign(await formKey(gw), id, Number(op)), mac) ? { id, operatorId: Number(op) } : null;
}

/** What the login may trust about this browser: its device cookie, else a live session. */
export async function knownBrowser(gw: Gateway, request: Request, ip: string): Promise<(KnownBrowser & { deviceId?: string }) | null> {
  const device = await deviceOf(gw, request);
  if (device) return { operatorId: device.operatorId, key: counterKey(device.id), deviceId: device.id };
  const token = readCookie(request, SESSION_COOKIE);
  const session = token ? await resumeSession(gw, token, ip) : null;
  return session ? { operatorId: session.operatorId, key: `s:${session.id}` } : null;
}

/** The cookie a successful login sets: the browser's own id kept when it had one for this operator. */
export async function deviceCookie(gw: Gateway, operatorId: number, keep: string | undefined, secure: boolean): Promise<string> {
  const id = keep ?? randomBytes(16).toString("base64url");
  return setCookie(DEVICE_COOKIE, `${id}.${operatorId}.${sign(await formKey(gw), id, operatorId)}`, { secure, maxAge: DEVICE_MAX_AGE });
}
