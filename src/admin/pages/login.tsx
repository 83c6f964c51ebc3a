/** @jsxImportSource @kitajs/html */
// Login and logout. The login form is a plain POST (no script needed) with a signed pre-session
// token; a success replaces whatever session cookie the browser had (no fixation), marks the
// browser as known (device.ts) and goes back to the page that sent the operator here. Refusals
// re-show the form with one message, never saying whether the name exists; the two 429s (too many
// attempts; the password queue full) come at once with Retry-After.
import { login } from "../../core/admin/login.ts";
import { logout, resumeSession } from "../../core/admin/sessions.ts";
import { Field, Notice } from "../components.tsx";
import type { AdminPage, PublicContext } from "../context.ts";
import { deviceCookie, knownBrowser } from "../device.ts";
import { SESSION_COOKIE } from "../guard.ts";
import { readCookie, safeNext, seeOther, setCookie } from "../http.ts";
import { PRE_COOKIE, preSession, preSessionValid } from "../presession.ts";
import { barePage } from "../render.tsx";

interface FormState {
  user?: string;
  error?: string;
  info?: string;
  status?: number;
  headers?: Record<string, string>;
}

async function loginForm(ctx: PublicContext, s: FormState = {}): Promise<Response> {
  const pre = await preSession(ctx.gw, ctx.request, ctx.secure);
  const next = safeNext(ctx.form.get("next") ?? ctx.query.get("next"));
  const headers: Record<string, string> = { ...s.headers };
  if (pre.setCookie) headers["set-cookie"] = pre.setCookie;
  return barePage(ctx, {
    title: ctx.t("login.title"),
    status: s.status,
    headers,
    children: (
      <div class="card">
        <h1 safe>{ctx.t("login.heading")}</h1>
        {s.error ? <Notice kind="error" text={s.error} id="login-error" /> : ""}
        {s.info ? <Notice kind="info" text={s.info} id="login-info" /> : ""}
        <form method="post" action="/admin/login" id="login-form">
          <input type="hidden" name="_csrf" value={pre.token} />
          <input type="hidden" name="next" value={next} />
          <Field label={ctx.t("login.user")} name="user" value={s.user ?? ""} autocomplete="username" required autofocus={!s.user} maxlength={64} />
          <Field label={ctx.t("login.password")} name="password" type="password" autocomplete="current-password" required autofocus={!!s.user} />
          <button class="btn btn-primary" type="submit" safe>{ctx.t("login.submit")}</button>
        </form>
        <p class="auth-hint muted">
          <span safe>{ctx.t("login.forgot")}</span> <code>xpay admin passwd --user NAME</code>
        </p>
      </div>
    ),
  });
}

async function showLogin(ctx: PublicContext): Promise<Response> {
  const token = readCookie(ctx.request, SESSION_COOKIE);
  if (token && (await resumeSession(ctx.gw, token, ctx.ip))) return seeOther(safeNext(ctx.query.get("next")));
  const info = ctx.query.has("out") ? ctx.t("login.logged_out") : undefined;
  return loginForm(ctx, { info });
}

async function submitLogin(ctx: PublicContext): Promise<Response> {
  const user = (ctx.form.get("user") ?? "").trim();
  const password = ctx.form.get("password") ?? "";
  if (!(await preSessionValid(ctx.gw, ctx.request, ctx.form.get("_csrf") ?? ""))) {
    return loginForm(ctx, { user, error: ctx.t("error.forbidden"), status: 403 });
  }
  if (user === "" || password === "") return loginForm(ctx, { user, error: ctx.t("login.required"), status: 422 });
  const known = await knownBrowser(ctx.gw, ctx.request, ctx.ip);
  const r = await login(ctx.gw, user, password, { ip: ctx.ip, userAgent: ctx.userAgent, known });
  if (r.kind === "throttled" || r.kind === "busy") {
    const error = ctx.t(r.kind === "busy" ? "login.busy" : "login.throttled", { n: r.retryAfter });
    return loginForm(ctx, { user, error, status: 429, headers: { "retry-after": String(r.retryAfter) } });
  }
  if (r.kind === "bad_credentials") return loginForm(ctx, { user, error: ctx.t("login.bad_credentials"), status: 401 });
  const res = seeOther(safeNext(ctx.form.get("next")));
  res.headers.append("set-cookie", setCookie(SESSION_COOKIE, r.token, { secure: ctx.secure }));
  const keep = known?.operatorId === r.operator.id ? known.deviceId : undefined;
  res.headers.append("set-cookie", await deviceCookie(ctx.gw, r.operator.id, keep, ctx.secure));
  res.headers.append("set-cookie", setCookie(PRE_COOKIE, "", { secure: ctx.secure, maxAge: 0 }));
  return res;
}

export const loginPage: AdminPage = {
  routes: [
    { method: "GET", path: "/admin/login", public: true, handle: showLogin },
    { method: "POST", path: "/admin/login", public: true, handle: submitLogin },
    {
      method: "POST",
      path: "/admin/logout",
      handle: async (ctx) => {
        await logout(ctx.gw, ctx.actor, ctx.session.id);
        return seeOther("/admin/login?out=1", { "set-cookie": setCookie(SESSION_COOKIE, "", { secure: ctx.secure, maxAge: 0 }) });
      },
    },
  ],
};
