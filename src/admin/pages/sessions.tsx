/** @jsxImportSource @kitajs/html */
// /admin/sessions (issue 22): the operator's live sessions with revoke per session, "log out
// everywhere", the password change (which logs out every other session), and the failed logins
// of the last day (login-failures.tsx). The revoke buttons
// are htmx actions that swap the table in place and fall back to a plain POST without script.
import { userAgentShort } from "../user-agent.ts";
import { changePassword } from "../../core/admin/operators.ts";
import { PASSWORD_MIN } from "../../core/admin/credentials.ts";
import { liveSessions, revokeAllSessions, revokeSession } from "../../core/admin/sessions.ts";
import { attr, CsrfInput, Field, Notice, PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { SESSION_COOKIE } from "../guard.ts";
import { seeOther, setCookie } from "../http.ts";
import { passwordText } from "../problems.ts";
import { LoginFailuresCard } from "./login-failures.tsx";
import { fragment, page } from "../render.tsx";

type PasswordErrors = Partial<Record<"current" | "password" | "repeat", string>>;

async function SessionsCard(p: { ctx: AdminContext; notice?: string }) {
  const { ctx } = p;
  const t = ctx.t;
  const sessions = await liveSessions(ctx.gw, ctx.operator.id);
  return (
    <div class="card" id="sessions">
      {p.notice ? <Notice kind="ok" text={p.notice} /> : ""}
      <div class="table-wrap cards">
        <table class="table" id="sessions-table">
          <thead>
            <tr>
              <th safe>{t("sessions.col_created")}</th>
              <th safe>{t("sessions.col_used")}</th>
              <th safe>{t("sessions.col_ip")}</th>
              <th safe>{t("sessions.col_agent")}</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr data-session={String(s.id)}>
                <td class="nowrap" data-label={t("sessions.col_created")}><Time at={s.createdAt} tz={ctx.tz} /></td>
                <td class="nowrap" data-label={t("sessions.col_used")}><Time at={s.lastUsedAt} tz={ctx.tz} /></td>
                <td class="nowrap mono" data-label={t("sessions.col_ip")} safe>{s.lastIp && s.lastIp !== s.ip ? `${s.ip || "—"} / ${s.lastIp}` : s.ip || "—"}</td>
                <td class="wrap c-title" title={attr(s.userAgent)} safe>{userAgentShort(s.userAgent) || "—"}</td>
                <td class="nowrap c-badge">
                  {s.id === ctx.session.id ? (
                    <span class="tag tag-accent" safe>{t("sessions.current")}</span>
                  ) : (
                    <form method="post" action={`/admin/sessions/${s.id}/revoke`} hx-post={`/admin/sessions/${s.id}/revoke`} hx-target="#sessions" hx-swap="outerHTML" hx-confirm={t("sessions.revoke_confirm")}>
                      <CsrfInput csrf={ctx.csrf} />
                      <button class="btn btn-small btn-danger" type="submit" safe>{t("sessions.revoke")}</button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form method="post" action="/admin/sessions/revoke-all" data-confirm={t("sessions.everywhere_confirm")} class="actions" id="revoke-all">
        <CsrfInput csrf={ctx.csrf} />
        <button class="btn btn-danger" type="submit" safe>{t("sessions.everywhere")}</button>
        <span class="muted" safe>{t("sessions.everywhere_hint")}</span>
      </form>
    </div>
  );
}

function PasswordForm(p: { ctx: AdminContext; errors?: PasswordErrors; done?: string }) {
  const { ctx } = p;
  const t = ctx.t;
  const e = p.errors ?? {};
  return (
    <form method="post" action="/admin/sessions/password" hx-post="/admin/sessions/password" hx-target="this" hx-swap="outerHTML" class="card" id="password-form">
      <h2 safe>{t("sessions.password_heading")}</h2>
      <p class="muted" safe>{t("sessions.password_hint")}</p>
      {p.done ? <Notice kind="ok" text={p.done} id="password-done" /> : ""}
      <CsrfInput csrf={ctx.csrf} />
      <Field label={t("sessions.password_current")} name="current" type="password" error={e.current} autocomplete="current-password" required />
      <Field label={t("sessions.password_new")} name="password" type="password" error={e.password} hint={t("password.rules", { n: PASSWORD_MIN })} autocomplete="new-password" required />
      <Field label={t("sessions.password_repeat")} name="repeat" type="password" error={e.repeat} autocomplete="new-password" required />
      <button class="btn btn-primary" type="submit" safe>{t("sessions.password_submit")}</button>
    </form>
  );
}

async function renderSessions(ctx: AdminContext, o: { notice?: string; errors?: PasswordErrors; done?: string; status?: number } = {}): Promise<Response> {
  const safeCard = await SessionsCard({ ctx, notice: o.notice });
  const safeFailures = await LoginFailuresCard({ ctx });
  return page(ctx, {
    title: ctx.t("sessions.title"),
    status: o.status,
    children: (
      <section>
        <PageHead title={ctx.t("sessions.title")} lead={ctx.t("sessions.intro")} />
        {safeCard}
        <PasswordForm ctx={ctx} errors={o.errors} done={o.done} />
        {safeFailures}
      </section>
    ),
  });
}

async function revokeOne(ctx: AdminContext): Promise<Response> {
  const id = /^\d{1,15}$/.test(ctx.params.id ?? "") ? Number(ctx.params.id) : 0;
  const gone = await revokeSession(ctx.gw, ctx.actor, id, ctx.operator.id);
  if (id === ctx.session.id) return logOut(ctx);
  const notice = ctx.t(gone ? "sessions.revoked" : "sessions.gone");
  if (ctx.htmx) return fragment(await SessionsCard({ ctx, notice }));
  return seeOther("/admin/sessions");
}

/** This browser's session is gone too: clear the cookie and go to the login page. */
function logOut(ctx: AdminContext): Response {
  const cookie = setCookie(SESSION_COOKIE, "", { secure: ctx.secure, maxAge: 0 });
  if (ctx.htmx) return fragment("", 200, { "hx-redirect": "/admin/login?out=1", "set-cookie": cookie });
  return seeOther("/admin/login?out=1", { "set-cookie": cookie });
}

async function changeOwnPassword(ctx: AdminContext): Promise<Response> {
  const password = ctx.form.get("password") ?? "";
  const errors: PasswordErrors = {};
  if (password !== (ctx.form.get("repeat") ?? "")) errors.repeat = ctx.t("password.mismatch");
  const r = errors.repeat
    ? null
    : await changePassword(ctx.gw, ctx.actor, ctx.operator.name, password, { current: ctx.form.get("current") ?? "", keepSessionId: ctx.session.id });
  if (r?.kind === "wrong_current") errors.current = ctx.t("password.wrong_current");
  if (r?.kind === "bad_password") errors.password = passwordText(ctx.t, r.problem);
  const done = r?.kind === "changed" ? ctx.t("sessions.password_changed", { n: r.revoked }) : undefined;
  const status = done ? 200 : 422;
  if (ctx.htmx) return fragment(<PasswordForm ctx={ctx} errors={errors} done={done} />, status);
  return renderSessions(ctx, { errors, done, status });
}

export const sessionsPage: AdminPage = {
  nav: { path: "/admin/sessions", label: "nav.sessions", order: 90 },
  routes: [
    { method: "GET", path: "/admin/sessions", handle: (ctx) => renderSessions(ctx) },
    { method: "POST", path: "/admin/sessions/:id/revoke", handle: revokeOne },
    {
      method: "POST",
      path: "/admin/sessions/revoke-all",
      handle: async (ctx) => {
        await revokeAllSessions(ctx.gw, ctx.actor, ctx.operator);
        return logOut(ctx);
      },
    },
    { method: "POST", path: "/admin/sessions/password", handle: changeOwnPassword },
  ],
};
