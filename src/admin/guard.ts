// Every console request passes here before its handler: the console must be enabled, a POST must
// come from this origin (Origin, else Referer) with a body of at most 64 KiB, a non-public route
// needs a live session, and a POST on one needs that session's CSRF token (X-CSRF-Token header or
// `_csrf` field). A refusal changes nothing. Whatever the handler answers gets the security headers.
import { csrfToken, resumeSession, sameSecret } from "../core/admin/sessions.ts";
import type { Gateway } from "../core/gateway.ts";
import { peerIp } from "../protocols/http.ts";
import type { AdminContext, AdminRoute, NavItem, PublicContext } from "./context.ts";
import { isHttps, readCookie, sameOrigin, seeOther, withConsoleHeaders } from "./http.ts";
import { isLang, LANG_COOKIE, translator } from "./i18n/index.ts";
import { errorAnswer } from "./render.tsx";

export const SESSION_COOKIE = "xpay_session";
const MAX_BODY = 64 * 1024;

/** Bun's server, as Elysia hands it over (null under app.handle). */
type Server = (NonNullable<Parameters<typeof peerIp>[1]> & { timeout?(request: Request, seconds: number): void }) | null | undefined;

/** What the main app answers for a path it does not have: a disabled console looks exactly like none. */
export function notFoundLikeMain(): Response {
  return new Response(JSON.stringify({ code: 404, msg: "not found", data: null }), { status: 404, headers: { "content-type": "application/json; charset=utf-8" } });
}

const holdsNul = (p: URLSearchParams) => [...p].some(([k, v]) => k.includes("\0") || v.includes("\0"));

async function readForm(request: Request): Promise<URLSearchParams | "too_large"> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) return "too_large";
  const type = request.headers.get("content-type") ?? "";
  const text = await request.text();
  if (text.length > MAX_BODY) return "too_large";
  return type.startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(text) : new URLSearchParams();
}

async function publicContext(gw: Gateway, request: Request, params: Record<string, string>, server: Server): Promise<PublicContext> {
  const url = new URL(request.url);
  const cookieLang = readCookie(request, LANG_COOKIE);
  const lang = isLang(cookieLang) ? cookieLang : "zh";
  return {
    gw, request, url, params, lang,
    query: url.searchParams,
    form: new URLSearchParams(),
    ip: peerIp(request, server, gw.proxyHops),
    userAgent: request.headers.get("user-agent") ?? "",
    t: translator(lang),
    tz: (await gw.settings()).str("timezone"),
    htmx: request.headers.get("hx-request") === "true",
    secure: isHttps(gw, request),
    idleTimeout: (seconds) => server?.timeout?.(request, seconds),
  };
}

/** GET without a session goes to the login page (and back here after it); htmx is told to go there. */
function loginFirst(ctx: PublicContext, method: string): Response {
  const next = ctx.url.pathname + ctx.url.search;
  const login = `/admin/login?next=${encodeURIComponent(next)}`;
  if (ctx.htmx) return errorAnswer(ctx, 401, ctx.t("error.unauthorized"), { "hx-redirect": "/admin/login" });
  if (method === "GET") return seeOther(login);
  return errorAnswer(ctx, 401, ctx.t("error.unauthorized"));
}

async function guarded(gw: Gateway, nav: readonly NavItem[], route: AdminRoute, request: Request, params: Record<string, string>, server: Server): Promise<Response> {
  const ctx = await publicContext(gw, request, params, server);
  const post = request.method === "POST";
  if (post) {
    if (!sameOrigin(gw, request)) {
      gw.log.event("admin.refused", { why: "origin", path: ctx.url.pathname, ip: ctx.ip });
      return errorAnswer(ctx, 403, ctx.t("error.forbidden"));
    }
    const form = await readForm(request);
    if (form === "too_large") return errorAnswer(ctx, 413, ctx.t("error.too_large"));
    ctx.form = form;
  }
  // No browser sends a NUL; PostgreSQL's text cannot hold one (a lookup with it failed there as a 500).
  if (holdsNul(ctx.query) || holdsNul(ctx.form)) return errorAnswer(ctx, 400, ctx.t("error.bad_input"));
  if (route.public) return route.handle(ctx);

  const token = readCookie(request, SESSION_COOKIE) ?? "";
  const session = token ? await resumeSession(gw, token, ctx.ip) : null;
  if (!session) return loginFirst(ctx, request.method);
  const csrf = csrfToken(token);
  if (post && !sameSecret(request.headers.get("x-csrf-token") ?? ctx.form.get("_csrf") ?? "", csrf)) {
    gw.log.event("admin.refused", { why: "csrf", path: ctx.url.pathname, ip: ctx.ip, user: session.operatorName });
    return errorAnswer(ctx, 403, ctx.t("error.forbidden"));
  }
  const operator = { id: session.operatorId, name: session.operatorName };
  const admin: AdminContext = { ...ctx, operator, session, csrf, nav, actor: { name: session.operatorName, ip: ctx.ip } };
  return route.handle(admin);
}

/** Runs a route behind the guard; an exception is logged (message only) and answered 500 without details. */
export async function runRoute(gw: Gateway, nav: readonly NavItem[], route: AdminRoute, request: Request, params: Record<string, string>, server: Server): Promise<Response> {
  if (!(await consoleEnabled(gw))) return notFoundLikeMain();
  let res: Response;
  try {
    res = await guarded(gw, nav, route, request, params, server);
  } catch (e) {
    gw.log.error("admin.error", { path: new URL(request.url).pathname, message: e instanceof Error ? e.message : String(e) });
    res = errorAnswer(await publicContext(gw, request, params, server), 500, translator("zh")("error.internal"));
  }
  return withConsoleHeaders(res, res.headers.get("cache-control")?.includes("immutable") ? "immutable" : "no-store");
}

/** The `admin_enabled` setting (re-read within a second of a change, like every setting). */
export async function consoleEnabled(gw: Gateway): Promise<boolean> {
  return (await gw.settings()).str("admin_enabled") === "1";
}
