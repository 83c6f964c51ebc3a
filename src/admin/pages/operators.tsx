/** @jsxImportSource @kitajs/html */
// /admin/operators: the console's operators on the functions `xpay admin` uses
// (core/admin/operators.ts, each audited there): the list, add (name and password typed twice;
// the credential rules' problems under their fields, 422, nothing added), reset another
// operator's password (all its sessions end; your own password is changed on 会话 with the
// current one), remove (never yourself, never the last operator: the console would lock out).
import { PASSWORD_MAX, PASSWORD_MIN, type NameProblem, type PasswordProblem } from "../../core/admin/credentials.ts";
import { addOperator, changePassword, removeOperator } from "../../core/admin/operators.ts";
import { attr, CsrfInput, Field, Notice, PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import type { TextKey } from "../i18n/index.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, page } from "../render.tsx";

type Errors = Partial<Record<"name" | "password" | "repeat" | "form", string>>;
const nameText = (ctx: AdminContext, p: NameProblem) => ctx.t(`name.${p}` as TextKey);
const passwordText = (ctx: AdminContext, p: PasswordProblem) => ctx.t(`password.${p}` as TextKey, { n: p === "too_long" ? PASSWORD_MAX : PASSWORD_MIN });

async function listPage(ctx: AdminContext, o: { errors?: Errors; name?: string; reset?: string; status?: number } = {}): Promise<Response> {
  const t = ctx.t;
  const ops = await ctx.gw.store.admin.listOperators();
  const e = o.errors ?? {};
  const done = ctx.query.get("done");
  const who = ctx.query.get("name") ?? "";
  const n = ctx.query.get("n") ?? "0";
  const notice = done === "added" ? t("operators.added", { name: who }) : done === "removed" ? t("operators.removed", { name: who }) : done === "reset" ? t("operators.reset_done", { name: who, n }) : "";
  return page(ctx, {
    title: t("operators.title"),
    status: o.status,
    styles: ["manage.css"],
    children: (
      <section>
        <PageHead title={t("operators.title")} lead={t("operators.intro")} />
        {notice ? <Notice kind="ok" id="operators-notice" text={notice} /> : ""}
        {e.form ? <Notice kind="error" id="operators-error" text={e.form} /> : ""}
        <div class="table-wrap cards">
          <table class="table" id="operators-table">
            <thead><tr><th safe>{t("operators.col_name")}</th><th safe>{t("operators.col_created")}</th><th safe>{t("operators.col_password")}</th><th safe>{t("operators.col_login")}</th><th></th></tr></thead>
            <tbody>
              {ops.map((op) => (
                <tr data-operator={attr(op.name)}>
                  <td class="c-title"><strong safe>{op.name}</strong>{op.id === ctx.operator.id ? <span class="faint" safe>{` ${t("operators.you")}`}</span> : ""}</td>
                  <td class="nowrap" data-label={t("operators.col_created")}><Time at={op.createdAt} tz={ctx.tz} /></td>
                  <td class="nowrap" data-label={t("operators.col_password")}><Time at={op.passwordChangedAt} tz={ctx.tz} /></td>
                  <td class="nowrap" data-label={t("operators.col_login")}>{op.lastLoginAt ? <Time at={op.lastLoginAt} tz={ctx.tz} /> : <span class="faint" safe>{t("operators.never")}</span>}</td>
                  <td class={op.id === ctx.operator.id ? "nowrap c-hide" : "nowrap c-actions"}>
                    {op.id === ctx.operator.id ? "" : (
                      <div class="actions">
                        <a class="btn btn-small" href={`/admin/operators?reset=${encodeURIComponent(op.name)}#operator-reset`} safe>{t("operators.reset")}</a>
                        <form method="post" action={`/admin/operators/${encodeURIComponent(op.name)}/remove`} data-confirm={t("operators.remove_confirm")}>
                          <CsrfInput csrf={ctx.csrf} />
                          <button class="btn btn-small btn-danger" type="submit" safe>{t("operators.remove")}</button>
                        </form>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {(() => {
          const reset = o.reset ?? ctx.query.get("reset") ?? "";
          const target = ops.find((op) => op.name === reset && op.id !== ctx.operator.id);
          return target ? (
            <form method="post" action={`/admin/operators/${encodeURIComponent(target.name)}/password`} class="card manage-form" id="operator-reset">
              <h2 safe>{t("operators.reset_title", { name: target.name })}</h2>
              <CsrfInput csrf={ctx.csrf} />
              <Field label={t("operators.password")} name="password" type="password" error={o.reset ? e.password : undefined} hint={t("password.rules", { n: PASSWORD_MIN })} autocomplete="new-password" required />
              <Field label={t("operators.repeat")} name="repeat" type="password" error={o.reset ? e.repeat : undefined} autocomplete="new-password" required />
              <button class="btn btn-primary" type="submit" id="operator-reset-submit" safe>{t("operators.save")}</button>
            </form>
          ) : "";
        })()}
        <form method="post" action="/admin/operators" class="card manage-form" id="operator-add">
          <h2 safe>{t("operators.add_title")}</h2>
          <CsrfInput csrf={ctx.csrf} />
          <Field label={t("operators.name")} name="name" value={o.reset ? "" : o.name ?? ""} error={o.reset ? undefined : e.name} autocomplete="off" required maxlength={32} />
          <Field label={t("operators.password")} name="password" type="password" error={o.reset ? undefined : e.password} hint={t("password.rules", { n: PASSWORD_MIN })} autocomplete="new-password" required />
          <Field label={t("operators.repeat")} name="repeat" type="password" error={o.reset ? undefined : e.repeat} autocomplete="new-password" required />
          <button class="btn btn-primary" type="submit" id="operator-add-submit" safe>{t("operators.add")}</button>
        </form>
      </section>
    ),
  });
}

async function add(ctx: AdminContext): Promise<Response> {
  const name = (ctx.form.get("name") ?? "").trim();
  const password = ctx.form.get("password") ?? "";
  if (password !== (ctx.form.get("repeat") ?? "")) return listPage(ctx, { name, errors: { repeat: ctx.t("password.mismatch") }, status: 422 });
  const r = await addOperator(ctx.gw, ctx.actor, name, password);
  if (r.kind === "bad_name") return listPage(ctx, { name, errors: { name: nameText(ctx, r.problem) }, status: 422 });
  if (r.kind === "bad_password") return listPage(ctx, { name, errors: { password: passwordText(ctx, r.problem) }, status: 422 });
  if (r.kind === "exists") return listPage(ctx, { name, errors: { name: ctx.t("operators.exists") }, status: 422 });
  return seeOther(`/admin/operators?done=added&name=${encodeURIComponent(r.operator.name)}`);
}

async function reset(ctx: AdminContext): Promise<Response> {
  const name = ctx.params.name ?? "";
  const target = await ctx.gw.store.admin.findOperator(name);
  // Your own password is changed on 会话 with the current one; this form is for the others'.
  if (!target || target.id === ctx.operator.id) return errorAnswer(ctx, 404, ctx.t("operators.not_found"));
  const password = ctx.form.get("password") ?? "";
  if (password !== (ctx.form.get("repeat") ?? "")) return listPage(ctx, { reset: name, errors: { repeat: ctx.t("password.mismatch") }, status: 422 });
  const r = await changePassword(ctx.gw, ctx.actor, target.name, password);
  if (r.kind === "bad_password") return listPage(ctx, { reset: name, errors: { password: passwordText(ctx, r.problem) }, status: 422 });
  if (r.kind !== "changed") return errorAnswer(ctx, 404, ctx.t("operators.not_found"));
  return seeOther(`/admin/operators?done=reset&name=${encodeURIComponent(target.name)}&n=${r.revoked}`);
}

async function remove(ctx: AdminContext): Promise<Response> {
  const name = ctx.params.name ?? "";
  const target = await ctx.gw.store.admin.findOperator(name);
  if (!target) return errorAnswer(ctx, 404, ctx.t("operators.not_found"));
  if (target.id === ctx.operator.id) return listPage(ctx, { errors: { form: ctx.t("operators.not_self") }, status: 409 });
  if ((await ctx.gw.store.admin.countOperators()) <= 1) return listPage(ctx, { errors: { form: ctx.t("operators.not_last") }, status: 409 });
  if (!(await removeOperator(ctx.gw, ctx.actor, target.name))) return errorAnswer(ctx, 404, ctx.t("operators.not_found"));
  return seeOther(`/admin/operators?done=removed&name=${encodeURIComponent(target.name)}`);
}

export const operatorsPage: AdminPage = {
  nav: { path: "/admin/operators", label: "operators.nav", order: 85 },
  routes: [
    { method: "GET", path: "/admin/operators", handle: (ctx) => listPage(ctx) },
    { method: "POST", path: "/admin/operators", handle: add },
    { method: "POST", path: "/admin/operators/:name/password", handle: reset },
    { method: "POST", path: "/admin/operators/:name/remove", handle: remove },
  ],
};
