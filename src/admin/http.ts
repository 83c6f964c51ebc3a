// HTTP rules of the console, in one place: the security headers every answer carries, cookies, the
// request's own origin (for the Origin check) and whether it came over https (for `Secure`).
import type { Gateway } from "../core/gateway.ts";

/** No inline script or style anywhere: htmx and our own code load from /admin/assets only. */
export const CONSOLE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Sets the headers every console answer carries; pages and actions also get `no-store`. */
export function withConsoleHeaders(res: Response, cache: "no-store" | "immutable" = "no-store"): Response {
  const h = res.headers;
  h.set("content-security-policy", CONSOLE_POLICY);
  h.set("x-frame-options", "DENY");
  h.set("referrer-policy", "same-origin");
  h.set("x-content-type-options", "nosniff");
  h.set("cache-control", cache === "immutable" ? "public, max-age=31536000, immutable" : "no-store");
  return res;
}

export function htmlResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return withConsoleHeaders(new Response(`<!doctype html>${body}`, { status, headers: { "content-type": "text/html; charset=utf-8", ...headers } }));
}

/** An htmx fragment: the same headers, no doctype. */
export function fragmentResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return withConsoleHeaders(new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...headers } }));
}

/** 303 after a POST (the browser then GETs), or a plain redirect for a GET. */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return withConsoleHeaders(new Response(null, { status: 303, headers: { location, ...headers } }));
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  secure: boolean;
  /** Seconds; 0 deletes the cookie; absent: a browser-session cookie. */
  maxAge?: number;
  /** The language cookie is read by no script either, but it is not secret; sessions are HttpOnly. */
  httpOnly?: boolean;
}

export function setCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${value}`, "Path=/admin", "SameSite=Strict"];
  if (o.httpOnly !== false) parts.push("HttpOnly");
  if (o.secure) parts.push("Secure");
  if (o.maxAge !== undefined) parts.push(`Max-Age=${o.maxAge}`);
  return parts.join("; ");
}

/** A proxy that sets a forwarded header appends to what the client sent: the last value is the proxy's. */
const lastValue = (header: string | null) => header?.split(",").pop()?.trim() || undefined;

/** https directly, or behind a trusted proxy that says X-Forwarded-Proto: https. */
export function isHttps(gw: Gateway, request: Request): boolean {
  if (request.url.startsWith("https:")) return true;
  return gw.trustProxy && lastValue(request.headers.get("x-forwarded-proto")) === "https";
}

/**
 * The origin the browser used for this request: scheme and Host, or behind a trusted proxy its
 * X-Forwarded-Proto and X-Forwarded-Host (when it sends one; nginx usually passes Host itself).
 */
export function requestOrigin(gw: Gateway, request: Request): string {
  const url = new URL(request.url);
  const forwardedHost = gw.trustProxy ? lastValue(request.headers.get("x-forwarded-host")) : undefined;
  const host = forwardedHost && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(forwardedHost) ? forwardedHost : (request.headers.get("host") ?? url.host);
  const scheme = isHttps(gw, request) ? "https" : "http";
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return url.origin;
  }
}

/**
 * A state-changing request must name this origin in Origin, or, when a browser leaves Origin out,
 * in Referer. Neither header (a script, not a browser) or any other origin is refused.
 */
export function sameOrigin(gw: Gateway, request: Request): boolean {
  const claimed = request.headers.get("origin") ?? request.headers.get("referer");
  if (!claimed || claimed === "null") return false;
  try {
    return new URL(claimed).origin === requestOrigin(gw, request);
  } catch {
    return false;
  }
}

/** A path inside the console to go back to after login; anything else (another site, //host, dot segments) is dropped. */
export function safeNext(value: string | null | undefined): string {
  if (!value || !/^\/admin(\/[A-Za-z0-9/_.-]*)?(\?[A-Za-z0-9=&%_.-]*)?$/.test(value) || value.includes("//") || value.includes("/.")) return "/admin";
  return value;
}
