/** @jsxImportSource @kitajs/html */
// The failed-login summary on the sessions page: the throttle's counters of the last 24 hours
// (core/admin/login-failures.ts), one row per minute, typed user name, browser and address. The
// user name is whatever a stranger typed: escaped like every text.
import { recentLoginFailures } from "../../core/admin/login-failures.ts";
import { Time } from "../components.tsx";
import type { AdminContext } from "../context.ts";

const SHOWN = 100;

export async function LoginFailuresCard(p: { ctx: AdminContext }) {
  const { ctx } = p;
  const t = ctx.t;
  const rows = await recentLoginFailures(ctx.gw, { hours: 24, limit: SHOWN });
  return (
    <div class="card" id="login-failures">
      <h2 safe>{t("sessions.failures_heading")}</h2>
      <p class="muted" safe>{t("sessions.failures_hint")}</p>
      {rows.length === 0 ? (
        <p class="muted" safe>{t("sessions.failures_none")}</p>
      ) : (
        <div class="table-wrap cards">
          <table class="table" id="login-failures-table">
            <thead>
              <tr>
                <th safe>{t("sessions.col_minute")}</th>
                <th safe>{t("sessions.col_user")}</th>
                <th safe>{t("sessions.col_ip")}</th>
                <th safe>{t("sessions.col_browser")}</th>
                <th class="num" safe>{t("sessions.col_failed")}</th>
                <th class="num" safe>{t("sessions.col_refused")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr>
                  <td class="nowrap c-key" data-label={t("sessions.col_minute")}><Time at={r.window} tz={ctx.tz} /></td>
                  <td class="wrap mono" data-label={t("sessions.col_user")} safe>{r.user || "—"}</td>
                  <td class="nowrap mono" data-label={t("sessions.col_ip")} safe>{r.ip || "—"}</td>
                  <td class="nowrap" data-label={t("sessions.col_browser")} safe>{t(r.device ? "sessions.browser_known" : "sessions.browser_stranger")}</td>
                  <td class="num" data-label={t("sessions.col_failed")} safe>{String(r.failed)}</td>
                  <td class="num" data-label={t("sessions.col_refused")} safe>{String(r.refused)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
