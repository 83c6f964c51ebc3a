/** @jsxImportSource @kitajs/html */
// First run: /admin/setup?token=... (the link `xpay serve` prints while no operator exists) creates
// the first operator and logs them in. The one-time token in the form is the pre-session CSRF
// token here: a forged POST cannot know it, and it is burnt by the first success.
import { completeSetup, setupTokenValid } from "../../core/admin/setup.ts";
import { PASSWORD_MIN } from "../../core/admin/credentials.ts";
import { Field, Notice } from "../components.tsx";
import type { AdminPage, PublicContext } from "../context.ts";
import { SESSION_COOKIE } from "../guard.ts";
import { seeOther, setCookie } from "../http.ts";
import { nameText, passwordText } from "../problems.ts";
import { barePage } from "../render.tsx";

type Errors = Partial<Record<"user" | "password" | "repeat", string>>;

function closed(ctx: PublicContext, operatorExists: boolean): Response {
  return barePage(ctx, {
    title: ctx.t("setup.title"),
    status: operatorExists ? 410 : 404,
    children: (
      <div class="card">
        <h1 safe>{ctx.t("setup.heading")}</h1>
        <Notice kind={operatorExists ? "info" : "error"} text={ctx.t(operatorExists ? "setup.operator_exists" : "setup.bad_token")} id="setup-closed" />
        <a class="btn btn-primary" href="/admin/login" safe>{ctx.t("setup.go_login")}</a>
      </div>
    ),
  });
}

function setupForm(ctx: PublicContext, token: string, o: { user?: string; errors?: Errors; status?: number } = {}): Response {
  const e = o.errors ?? {};
  return barePage(ctx, {
    title: ctx.t("setup.title"),
    status: o.status,
    children: (
      <div class="card">
        <h1 safe>{ctx.t("setup.heading")}</h1>
        <p class="muted" safe>{ctx.t("setup.intro")}</p>
        <form method="post" action="/admin/setup" id="setup-form">
          <input type="hidden" name="token" value={token} />
          <Field label={ctx.t("setup.user")} name="user" value={o.user ?? ""} error={e.user} autocomplete="username" required autofocus={!e.password && !e.repeat} maxlength={32} />
          <Field label={ctx.t("setup.password")} name="password" type="password" error={e.password} hint={ctx.t("password.rules", { n: PASSWORD_MIN })} autocomplete="new-password" required autofocus={!!e.password || !!e.repeat} />
          <Field label={ctx.t("setup.repeat")} name="repeat" type="password" error={e.repeat} autocomplete="new-password" required />
          <button class="btn btn-primary" type="submit" safe>{ctx.t("setup.submit")}</button>
        </form>
      </div>
    ),
  });
}

async function showSetup(ctx: PublicContext): Promise<Response> {
  const token = ctx.query.get("token") ?? "";
  if (await setupTokenValid(ctx.gw, token)) return setupForm(ctx, token);
  return closed(ctx, (await ctx.gw.store.admin.countOperators()) > 0);
}

async function submitSetup(ctx: PublicContext): Promise<Response> {
  const token = ctx.form.get("token") ?? "";
  const user = (ctx.form.get("user") ?? "").trim();
  const r = await completeSetup(ctx.gw, token, user, ctx.form.get("password") ?? "", ctx.form.get("repeat") ?? "", { ip: ctx.ip, userAgent: ctx.userAgent });
  switch (r.kind) {
    case "bad_token":
      return closed(ctx, false);
    case "operator_exists":
      return closed(ctx, true);
    case "bad_name":
      return setupForm(ctx, token, { user, errors: { user: nameText(ctx.t, r.problem) }, status: 422 });
    case "bad_password":
      return setupForm(ctx, token, { user, errors: { password: passwordText(ctx.t, r.problem) }, status: 422 });
    case "mismatch":
      return setupForm(ctx, token, { user, errors: { repeat: ctx.t("password.mismatch") }, status: 422 });
    case "done":
      return seeOther("/admin", { "set-cookie": setCookie(SESSION_COOKIE, r.token, { secure: ctx.secure }) });
  }
}

export const setupPage: AdminPage = {
  routes: [
    { method: "GET", path: "/admin/setup", public: true, handle: showSetup },
    { method: "POST", path: "/admin/setup", public: true, handle: submitSetup },
  ],
};
