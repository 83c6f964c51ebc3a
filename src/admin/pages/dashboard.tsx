/** @jsxImportSource @kitajs/html */
// GET /admin: the dashboard. For now the shell: a welcome, this login and the session count;
// the income figures, monitoring clients and attention list (issue 17) replace the placeholder.
import { liveSessions } from "../../core/admin/sessions.ts";
import { Notice, PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { page } from "../render.tsx";

async function dashboard(ctx: AdminContext): Promise<Response> {
  const sessions = await liveSessions(ctx.gw, ctx.operator.id);
  return page(ctx, {
    title: ctx.t("dashboard.title"),
    children: (
      <section>
        <PageHead title={ctx.t("dashboard.welcome", { name: ctx.operator.name })} />
        <div class="card" id="welcome">
          <p>
            <span safe>{ctx.t("dashboard.this_login")}</span> <Time at={ctx.session.createdAt} tz={ctx.tz} />
            {" · "}
            <span safe>{ctx.t("dashboard.from_ip", { ip: ctx.session.ip || "-" })}</span>
          </p>
          <p safe>{ctx.t("dashboard.sessions", { n: sessions.length })}</p>
          <p>
            <a href="/admin/sessions" safe>{ctx.t("nav.sessions")}</a>
            {" · "}
            <a href="/admin/audit" safe>{ctx.t("nav.audit")}</a>
          </p>
        </div>
        <Notice kind="info" text={ctx.t("dashboard.coming")} />
      </section>
    ),
  });
}

export const dashboardPage: AdminPage = {
  nav: { path: "/admin", label: "nav.dashboard", order: 10 },
  routes: [
    { method: "GET", path: "/admin", handle: dashboard },
    { method: "GET", path: "/admin/", handle: dashboard },
  ],
};
