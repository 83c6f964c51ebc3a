/** @jsxImportSource @kitajs/html */
// The receiving-account form (/admin/accounts/new and /admin/accounts/:id): the same rule as
// `xpay channel add/edit` (core/account-actions.ts), its problem under the field it names. The QR
// content is typed, pasted or read from an image of the collection code in the browser
// (assets/accounts.js with jsQR; the image is never uploaded), and previewed as the payer will see
// it: /admin/accounts/qr renders it with the cashier's own QR renderer, behind the session. A
// content that is a URL but not the pay type's usual form (core/qr-content.ts) is saved only with
// the "不是常见格式，仍然保存" box, which the form shows once the rule has said so.
import { removeAccount, saveAccount } from "../../core/account-actions.ts";
import { accountsToday } from "../../core/accounts-today.ts";
import { yuanText } from "../format.ts";
import { PAY_TYPES } from "../../core/order-input.ts";
import type { ChannelAccount } from "../../core/types.ts";
import { QR_MAX_TEXT } from "../../protocols/links.ts";
import { renderQr } from "../../server/qrcode.ts";
import { attr, CsrfInput, Field, Notice, PageHead } from "../components.tsx";
import type { AdminContext, AdminRoute } from "../context.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, page } from "../render.tsx";
import { accountFormValues, accountProblemText, type Errors, FORM_FIELD, payTypeLabel, QR_FORCE_FIELD, readAccountForm } from "./account-input.ts";

const PREVIEW = "/admin/accounts/qr";
const previewUrl = (text: string) => `${PREVIEW}?text=${encodeURIComponent(text)}`;

function Select(p: { label: string; name: string; value: string; options: [string, string][]; error?: string; hint?: string }) {
  const id = `f-${p.name}`;
  return (
    <div class="field">
      <label for={id} safe>{p.label}</label>
      <select id={id} name={p.name} aria-invalid={p.error ? "true" : undefined}>
        {p.options.map(([v, text]) => <option value={attr(v)} selected={v === p.value} safe>{text}</option>)}
      </select>
      {p.error ? <p class="field-error" safe>{p.error}</p> : p.hint ? <p class="hint" safe>{p.hint}</p> : ""}
    </div>
  );
}

function QrField(p: { ctx: AdminContext; value: string; error?: string; force: boolean; showForce: boolean }) {
  const { t } = p.ctx;
  return (
    <div class="qr-box" id="qr-box" data-preview-url={PREVIEW}>
      <div class="qr-inputs">
        <Field label={t("accounts.f_qrcode")} name="qrcode" value={p.value} error={p.error} hint={t("accounts.f_qrcode_hint")} required />
        {p.showForce ? (
          <label class="check" id="qr-force">
            <input type="checkbox" name={QR_FORCE_FIELD} value="1" checked={p.force} /> <span safe>{t("accounts.f_qr_force")}</span>
          </label>
        ) : (
          ""
        )}
        <div class="field">
          <span class="label" id="qr-file-label" safe>{t("accounts.f_qr_file")}</span>
          {/* The browser's own file button speaks the browser's language: a label in ours stands in for it. */}
          <div class="file-pick">
            <input
              id="f-qr-file" class="file-input" type="file" accept="image/*" aria-labelledby="qr-file-label" data-qr-target="#f-qrcode"
              data-msg-read={t("accounts.qr_read")} data-msg-none={t("accounts.qr_not_found")} data-msg-bad={t("accounts.qr_bad_image")}
            />
            <label for="f-qr-file" class="btn btn-small" safe>{t("accounts.f_qr_choose")}</label>
            <span class="small faint" id="qr-file-name" safe>{t("accounts.f_qr_none")}</span>
          </div>
          <p class="hint" safe>{t("accounts.f_qr_file_hint")}</p>
          <p class="qr-status" id="qr-status" role="status" hidden></p>
        </div>
      </div>
      <figure class="qr-preview">
        <img id="qr-preview" src={p.value ? attr(previewUrl(p.value)) : undefined} alt={t("accounts.preview")} width="200" height="200" hidden={!p.value} />
        <figcaption>
          <span safe>{t("accounts.preview")}</span>
          <span class="small faint" id="qr-preview-none" hidden={!!p.value} safe>{t("accounts.preview_none")}</span>
        </figcaption>
      </figure>
    </div>
  );
}

async function formPage(ctx: AdminContext, o: { account: ChannelAccount | null; form: URLSearchParams; errors?: Errors; status?: number; qrUnusual?: boolean }): Promise<Response> {
  const t = ctx.t;
  const e = o.errors ?? {};
  const v = (k: string) => o.form.get(k) ?? "";
  const a = o.account;
  const merchants = await ctx.gw.store.listMerchants();
  const title = a ? t("accounts.edit_title", { id: a.id }) : t("accounts.new_title");
  const today = a ? (await accountsToday(ctx.gw, { pid: a.pid })).rows.find((r) => r.account.id === a.id) : undefined;
  const payTypes = [...PAY_TYPES, ...(a && !(PAY_TYPES as readonly string[]).includes(a.payType) ? [a.payType] : [])];
  return page(ctx, {
    title,
    status: o.status,
    styles: ["manage.css"],
    scripts: ["jsqr", "accounts.js"],
    children: (
      <section>
        <p class="back"><a href="/admin/accounts" safe>{t("accounts.back")}</a></p>
        <PageHead title={a ? `${title} · ${a.name}` : title} lead={today ? t("accounts.today_line", { paid: yuanText(today.paidToday), n: today.paidCountToday }) : undefined}>
          {a && a.enabled ? <a class="btn" href={`/admin/accounts/${a.id}/test-pay`} id="account-test-pay" title={t("testpay.button_hint")} safe>{t("testpay.button")}</a> : ""}
          {a ? <a class="btn" href={`/admin/accounts/${a.id}/slots`} id="account-slots" title={t("accounts.slots_hint")} safe>{t("accounts.slots")}</a> : ""}
        </PageHead>
        <form method="post" action={a ? `/admin/accounts/${a.id}` : "/admin/accounts"} class="card manage-form" id="account-form">
          {Object.keys(e).length > 0 ? <Notice kind="error" text={t("accounts.fix_errors")} /> : ""}
          <CsrfInput csrf={ctx.csrf} />
          <div class="form-grid form-grid-2">
            <Select label={t("accounts.f_pid")} name="pid" value={v("pid")} error={e.pid} hint={t("accounts.f_pid_hint")}
              options={[["0", t("accounts.f_pid_shared")], ...merchants.map((m): [string, string] => [String(m.pid), `${m.pid} · ${m.name}`])]} />
            <Select label={t("accounts.f_pay_type")} name="pay_type" value={v("pay_type")} error={e.pay_type} options={payTypes.map((p): [string, string] => [p, payTypeLabel(t, p)])} />
            <Field label={t("accounts.f_name")} name="name" value={v("name")} error={e.name} required maxlength={128} />
            <Field label={t("accounts.f_code")} name="code" value={v("code")} error={e.code} hint={t("accounts.f_code_hint")} required maxlength={64} />
          </div>
          <QrField ctx={ctx} value={v("qrcode")} error={e.qrcode} force={v(QR_FORCE_FIELD) === "1"} showForce={o.qrUnusual === true || v(QR_FORCE_FIELD) === "1"} />
          <Field label={t("accounts.f_scheme")} name="scheme" value={v("scheme")} error={e.scheme} hint={t("accounts.f_scheme_hint")} />
          <div class="form-grid form-grid-4">
            <Field label={t("accounts.f_min")} name="min" value={v("min")} error={e.min} hint={t("accounts.f_amount_hint")} />
            <Field label={t("accounts.f_max")} name="max" value={v("max")} error={e.max} hint={t("accounts.f_amount_hint")} />
            <Field label={t("accounts.f_day")} name="day" value={v("day")} error={e.day} hint={t("accounts.f_amount_hint")} />
            <Field label={t("accounts.f_sort")} name="sort" value={v("sort")} error={e.sort} hint={t("accounts.f_sort_hint")} />
          </div>
          <Field label={t("accounts.f_remark")} name="remark" value={v("remark")} error={e.remark} />
          <button class="btn btn-primary" type="submit" id="account-save" safe>{t(a ? "accounts.save" : "accounts.create")}</button>
        </form>
        {a ? (
          <form method="post" action={`/admin/accounts/${a.id}/remove`} class="card" id="account-remove" data-confirm={t("accounts.remove_confirm")}>
            <h2 safe>{t("accounts.danger_heading")}</h2>
            {e.remove ? <Notice kind="error" text={e.remove} /> : <p class="muted" safe>{t("accounts.remove_hint")}</p>}
            <CsrfInput csrf={ctx.csrf} />
            <button class="btn btn-danger" type="submit" safe>{t("accounts.remove")}</button>
          </form>
        ) : (
          ""
        )}
      </section>
    ),
  });
}

const idOf = (ctx: AdminContext) => (/^\d{1,9}$/.test(ctx.params.id ?? "") ? Number(ctx.params.id) : 0);

async function save(ctx: AdminContext, account: ChannelAccount | null): Promise<Response> {
  const { fields, errors } = readAccountForm(ctx.form, ctx.t);
  if (Object.keys(errors).length > 0) return formPage(ctx, { account, form: ctx.form, errors, status: 422 });
  const r = await saveAccount(ctx.gw, ctx.actor, account ? account.id : null, fields, { forceQr: ctx.form.get(QR_FORCE_FIELD) === "1" });
  if (r.kind === "not_found") return errorAnswer(ctx, 404, ctx.t("accounts.not_found"));
  if (r.kind === "refused") {
    const errors = { [FORM_FIELD[r.problem.field]]: accountProblemText(ctx.t, r.problem) };
    return formPage(ctx, { account, form: ctx.form, errors, status: 422, qrUnusual: r.problem.code === "qrcode_unusual" });
  }
  return seeOther(`/admin/accounts?done=${account ? "saved" : "added"}&id=${r.account.id}`);
}

async function withAccount(ctx: AdminContext, then: (a: ChannelAccount) => Promise<Response>): Promise<Response> {
  const a = await ctx.gw.store.getChannel(idOf(ctx));
  return a ? then(a) : errorAnswer(ctx, 404, ctx.t("accounts.not_found"));
}

async function remove(ctx: AdminContext): Promise<Response> {
  const id = idOf(ctx);
  const r = await removeAccount(ctx.gw, ctx.actor, id);
  if (r.kind === "not_found") return errorAnswer(ctx, 404, ctx.t("accounts.not_found"));
  if (r.kind === "used") {
    return withAccount(ctx, (a) => formPage(ctx, { account: a, form: accountFormValues(a), errors: { remove: ctx.t("accounts.remove_used", { id, orders: r.orders }) }, status: 409 }));
  }
  return seeOther(`/admin/accounts?done=removed&id=${id}`);
}

/** GET /admin/accounts/qr?text=...: the PNG the cashier page would show for this content. */
export async function qrPreview(ctx: AdminContext): Promise<Response> {
  const text = ctx.query.get("text") ?? "";
  const refuse = () => new Response("no QR code for this text", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (text === "" || text.length > QR_MAX_TEXT) return refuse();
  const r = await renderQr(text, "png", 240);
  return r.ok ? new Response(r.body, { headers: { "content-type": r.type } }) : refuse();
}

export const accountFormRoutes: AdminRoute[] = [
  { method: "GET", path: "/admin/accounts/new", handle: (ctx) => formPage(ctx, { account: null, form: new URLSearchParams({ pid: "0", pay_type: "alipay" }) }) },
  { method: "POST", path: "/admin/accounts", handle: (ctx) => save(ctx, null) },
  { method: "GET", path: "/admin/accounts/:id", handle: (ctx) => withAccount(ctx, (a) => formPage(ctx, { account: a, form: accountFormValues(a) })) },
  { method: "POST", path: "/admin/accounts/:id", handle: (ctx) => withAccount(ctx, (a) => save(ctx, a)) },
  { method: "POST", path: "/admin/accounts/:id/remove", handle: remove },
];
