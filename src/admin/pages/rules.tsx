/** @jsxImportSource @kitajs/html */
// /admin/rules: the operator's payment-message rules on the functions `xpay rules` uses
// (core/rules/manage.ts): the list with each rule's status, one form that either tries the
// patterns (testRule: the checks, the chat-like samples it would take, the stored unrecognised
// notifications it recognises and the amount it reads; changes nothing) or adds the rule (addRule,
// audited by the core; refused with the check's words, 422, nothing saved), and remove (audited).
import { AMOUNT_EXAMPLE } from "../../core/rules/check.ts";
import { addRule, removeRule, type RuleTest, testRule } from "../../core/rules/manage.ts";
import { ruleStatusIssue } from "../../core/rules/operator-rules.ts";
import { problemText } from "../problem-text.ts";
import { formatYuan } from "../../core/money.ts";
import { PAY_TYPES } from "../../core/order-input.ts";
import { attr, CsrfInput, Field, Notice, PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, page } from "../render.tsx";
import { payTypeLabel } from "./account-input.ts";

function TestResult(p: { ctx: AdminContext; result: RuleTest }) {
  const { ctx, result } = p;
  const t = ctx.t;
  return (
    <div id="rules-test">
      {result.issue === null ? <Notice kind="ok" text={t("rules.passes")} /> : <Notice kind="error" text={t("rules.refused", { reason: problemText(result.issue, t) })} />}
      {result.samples.length ? <Notice kind="warn" text={t("rules.samples", { names: result.samples.map((s) => s.name).join("; ") })} /> : ""}
      <p class="muted" safe>{t("rules.matches", { n: result.matches.length })}</p>
      {result.matches.length ? (
        <div class="table-wrap cards">
          <table class="table" id="rules-matches">
            <thead><tr><th safe>{t("rules.col_seen")}</th><th safe>{t("rules.col_titles")}</th><th safe>{t("rules.col_text")}</th><th class="num" safe>{t("rules.col_amount")}</th><th class="num" safe>{t("rules.col_count")}</th></tr></thead>
            <tbody>
              {result.matches.map((m) => (
                <tr>
                  <td class="nowrap c-title"><Time at={m.message.lastSeen} tz={ctx.tz} /></td>
                  <td data-label={t("rules.col_titles")} safe>{m.message.title}</td>
                  <td class="wrap c-full" data-label={t("rules.col_text")} safe>{m.message.text}</td>
                  <td class="num c-key" data-label={t("rules.col_amount")} safe>{m.amount === null ? t("rules.not_amount") : formatYuan(m.amount)}</td>
                  <td class="num c-key" data-label={t("rules.col_count")} safe>{String(m.message.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : ""}
    </div>
  );
}

async function listPage(ctx: AdminContext, o: { form?: URLSearchParams; result?: RuleTest; error?: string; status?: number } = {}): Promise<Response> {
  const t = ctx.t;
  const rules = await ctx.gw.store.rules.listRules();
  const form = o.form ?? new URLSearchParams({ pay_type: "wxpay" });
  const v = (k: string) => form.get(k) ?? "";
  const done = ctx.query.get("done");
  const name = ctx.query.get("name") ?? "";
  return page(ctx, {
    title: t("rules.title"),
    status: o.status,
    styles: ["manage.css"],
    children: (
      <section>
        <PageHead title={t("rules.title")} lead={t("rules.intro")} />
        {done === "added" || done === "removed" ? <Notice kind="ok" id="rules-notice" text={t(done === "added" ? "rules.added" : "rules.removed", { name })} /> : ""}
        <div class="table-wrap cards">
          <table class="table" id="rules-table">
            <thead><tr><th safe>{t("rules.col_name")}</th><th safe>{t("rules.col_package")}</th><th safe>{t("rules.col_pay_type")}</th><th safe>{t("rules.col_titles")}</th><th safe>{t("rules.col_text")}</th><th safe>{t("rules.col_status")}</th><th></th></tr></thead>
            <tbody>
              {rules.length === 0 ? <tr><td colspan="7" class="empty" safe>{t("rules.none")}</td></tr> : rules.map((r) => {
                const issue = ruleStatusIssue(r);
                const off = issue ? problemText(issue, t) : null;
                return (
                  <tr data-rule={attr(r.name)}>
                    <td class="mono c-title" safe>{r.name}</td>
                    <td class="mono small" data-label={t("rules.col_package")} safe>{r.pkg}</td>
                    <td class="nowrap" data-label={t("rules.col_pay_type")} safe>{payTypeLabel(t, r.payType)}</td>
                    <td class="wrap c-full" data-label={t("rules.col_titles")} safe>{r.titles.join(" | ")}</td>
                    <td class="wrap mono small c-full" data-label={t("rules.col_text")} safe>{r.text}</td>
                    <td class="c-badge">{off ? <span class="tag tag-warn" safe>{t("rules.off", { why: off })}</span> : <span class="tag tag-ok" safe>{t("rules.on")}</span>}</td>
                    <td class="c-actions">
                      <form method="post" action={`/admin/rules/${encodeURIComponent(r.name)}/remove`} data-confirm={t("rules.remove_confirm")}>
                        <CsrfInput csrf={ctx.csrf} />
                        <button class="btn btn-small btn-danger" type="submit" safe>{t("rules.remove")}</button>
                      </form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <form method="post" action="/admin/rules" class="card manage-form" id="rules-form">
          <h2 safe>{t("rules.form_title")}</h2>
          <CsrfInput csrf={ctx.csrf} />
          {o.error ? <Notice kind="error" text={o.error} id="rules-error" /> : ""}
          <Field label={t("rules.f_package")} name="package" value={v("package")} required maxlength={200} />
          <div class="field">
            <label for="f-titles" safe>{t("rules.f_titles")}</label>
            <textarea id="f-titles" name="titles" rows="2" required safe>{v("titles")}</textarea>
          </div>
          <Field label={t("rules.f_text", { amount: AMOUNT_EXAMPLE })} name="text" value={v("text")} required maxlength={500} />
          <div class="field">
            <label for="f-pay_type" safe>{t("rules.f_pay_type")}</label>
            <select id="f-pay_type" name="pay_type">{PAY_TYPES.map((p) => <option value={p} selected={p === v("pay_type")} safe>{payTypeLabel(t, p)}</option>)}</select>
          </div>
          <Field label={t("rules.f_name")} name="name" value={v("name")} maxlength={40} />
          <div class="actions">
            <button class="btn" type="submit" name="do" value="test" id="rules-try" safe>{t("rules.try")}</button>
            <button class="btn btn-primary" type="submit" name="do" value="add" id="rules-add" safe>{t("rules.add")}</button>
          </div>
          {o.result ? <TestResult ctx={ctx} result={o.result} /> : ""}
        </form>
      </section>
    ),
  });
}

const titlesOf = (f: URLSearchParams) => (f.get("titles") ?? "").split(/\r?\n/).map((s) => s.trim()).filter((s) => s !== "");

async function submit(ctx: AdminContext): Promise<Response> {
  const f = ctx.form;
  const input = { pkg: (f.get("package") ?? "").trim(), titles: titlesOf(f), text: f.get("text") ?? "", payType: f.get("pay_type") ?? "" };
  if (f.get("do") !== "add") return listPage(ctx, { form: f, result: await testRule(ctx.gw, { ...input, name: "test" }) });
  const name = (f.get("name") ?? "").trim();
  const r = await addRule(ctx.gw, ctx.actor, { ...input, name: name === "" ? undefined : name });
  if (!r.ok) return listPage(ctx, { form: f, error: ctx.t("rules.refused", { reason: problemText(r.problem, ctx.t) }), status: 422 });
  return seeOther(`/admin/rules?done=added&name=${encodeURIComponent(r.rule.name)}`);
}

async function remove(ctx: AdminContext): Promise<Response> {
  const name = ctx.params.name ?? "";
  if (!(await removeRule(ctx.gw, ctx.actor, name))) return errorAnswer(ctx, 404, ctx.t("rules.not_found"));
  return seeOther(`/admin/rules?done=removed&name=${encodeURIComponent(name)}`);
}

export const rulesPage: AdminPage = {
  nav: { path: "/admin/rules", label: "rules.nav", order: 66 },
  routes: [
    { method: "GET", path: "/admin/rules", handle: (ctx) => listPage(ctx) },
    { method: "POST", path: "/admin/rules", handle: submit },
    { method: "POST", path: "/admin/rules/:name/remove", handle: remove },
  ],
};
