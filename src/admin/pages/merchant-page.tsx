/** @jsxImportSource @kitajs/html */
// /admin/merchants/:pid: one merchant's name, notification method, cashier-page overrides and V免签
// notification and return addresses (one form, checked as `xpay merchant set` checks it), its
// status, the AppSecret and the V2 keys (the public key's fingerprint; a new pair replaces
// existing keys only with the confirmation ticked). Above them: its API details and income
// (merchant-api.tsx) and its notification delivery with the bulk resend (merchant-delivery.tsx).
import { merchantRow, setMerchantActive, updateMerchantOptions } from "../../core/merchant-admin.ts";
import { merchantDelivery } from "../../core/notify/health.ts";
import { incomeOf, merchantIncome } from "../../core/stats/merchant-income.ts";
import { keyFingerprint, newMerchantKeys, rotateSecret } from "../../core/merchant-keys.ts";
import { MERCHANT_KEYS, MERCHANT_SETTING_KEYS } from "../../core/merchant-settings.ts";
import { settingDef } from "../../core/settings.ts";
import { attr, CsrfInput, Field, Notice, PageHead } from "../components.tsx";
import type { AdminContext, AdminRoute } from "../context.ts";
import { seeOther } from "../http.ts";
import { settingText } from "../i18n/setting-text.ts";
import { errorAnswer, page } from "../render.tsx";
import { ApiBox } from "./merchant-api.tsx";
import { DeliveryBox, deliveryRoutes, watchFrom } from "./merchant-delivery.tsx";
import { SecretShownOnce } from "./merchant-once.tsx";
import { type Errors, merchantProblemText } from "./merchant-problems.ts";
import { choicesOf } from "./settings-problems.ts";

const pidOf = (ctx: AdminContext) => (/^\d{1,9}$/.test(ctx.params.pid ?? "") ? Number(ctx.params.pid) : 0);

/** One cashier override: a list of choices or a text, empty meaning "the operator's value". */
function OverrideField(p: { ctx: AdminContext; name: string; value: string; global: string; error?: string }) {
  const def = settingDef(p.name)!;
  const { label } = settingText(p.ctx.lang, def);
  const id = `f-s_${p.name}`;
  const choices = choicesOf(def.check);
  return (
    <div class="field">
      <label for={id}>
        <span safe>{label}</span> <code class="faint" safe>{p.name}</code>
      </label>
      {choices ? (
        <select id={id} name={`s_${p.name}`} aria-invalid={p.error ? "true" : undefined}>
          <option value="" selected={p.value === ""} safe>{p.ctx.t("merchants.use_global", { value: p.global })}</option>
          {choices.map((c) => <option value={attr(c)} selected={p.value === c} safe>{c}</option>)}
        </select>
      ) : (
        <input id={id} name={`s_${p.name}`} type="text" value={attr(p.value)} placeholder={attr(p.global)} aria-invalid={p.error ? "true" : undefined} />
      )}
      {p.error ? <p class="field-error" safe>{p.error}</p> : ""}
    </div>
  );
}

async function merchantPage(ctx: AdminContext, o: { form?: URLSearchParams; errors?: Errors; keysError?: string; notice?: string; status?: number; deliveryBox?: JSX.Element } = {}): Promise<Response> {
  const row = await merchantRow(ctx.gw, pidOf(ctx));
  if (!row) return errorAnswer(ctx, 404, ctx.t("merchants.not_found"));
  const { merchant: m, orders } = row;
  const t = ctx.t;
  const e = o.errors ?? {};
  const settings = await ctx.gw.settings();
  const value = (name: string, saved: string) => o.form?.get(name) ?? saved;
  const fingerprint = keyFingerprint(m.rsaPublicKey);
  const base = `/admin/merchants/${m.pid}`;
  const [delivery, income] = [(await merchantDelivery(ctx.gw, m.pid))!, incomeOf(await merchantIncome(ctx.gw, { pid: m.pid }), m.pid)];
  const safeDelivery = o.deliveryBox ?? <DeliveryBox ctx={ctx} d={delivery} watch={watchFrom(ctx.query)} />;
  return page(ctx, {
    title: t("merchants.page_title", { pid: m.pid }),
    status: o.status,
    styles: ["manage.css"],
    children: (
      <section id="merchant-page" data-pid={String(m.pid)}>
        <p class="back"><a href="/admin/merchants" safe>{t("merchants.back")}</a></p>
        <PageHead title={`${t("merchants.page_title", { pid: m.pid })} · ${m.name}`} lead={t("merchants.orders_line", orders)}>
          {m.active ? <span class="tag tag-ok" safe>{t("merchants.active")}</span> : <span class="tag tag-danger" safe>{t("merchants.inactive")}</span>}
        </PageHead>
        {o.notice ? <Notice kind="ok" text={o.notice} id="merchant-notice" /> : ""}
        <ApiBox ctx={ctx} pid={m.pid} income={income} />
        {safeDelivery}
        <form method="post" action={base} class="card manage-form" id="merchant-form">
          <h2 safe>{t("merchants.settings_heading")}</h2>
          {Object.keys(e).length > 0 ? <Notice kind="error" text={t("merchants.fix_errors")} /> : ""}
          <CsrfInput csrf={ctx.csrf} />
          <div class="form-row">
            <Field label={t("merchants.name")} name="name" value={value("name", m.name)} error={e.name} required maxlength={128} />
            <div class="field">
              <label for="f-notify_method" safe>{t("merchants.notify_method")}</label>
              <select id="f-notify_method" name="notify_method" aria-invalid={e.notify_method ? "true" : undefined}>
                {["POST", "GET"].map((v) => <option value={v} selected={value("notify_method", m.notifyMethod) === v}safe>{v}</option>)}
              </select>
              {e.notify_method ? <p class="field-error" safe>{e.notify_method}</p> : <p class="hint" safe>{t("merchants.notify_hint")}</p>}
            </div>
          </div>
          <h3 safe>{t("merchants.cashier_heading")}</h3>
          <p class="hint" safe>{t("merchants.cashier_hint")}</p>
          <div class="form-grid">
            {MERCHANT_SETTING_KEYS.map((k) => (
              <OverrideField ctx={ctx} name={k} value={value(`s_${k}`, m.settings[k] ?? "")} global={settings.str(k)} error={e[`setting:${k}`]} />
            ))}
          </div>
          <h3 safe>{t("merchants.vmq_heading")}</h3>
          <p class="hint" safe>{t("merchants.vmq_hint")}</p>
          <div class="form-grid" id="merchant-vmq">
            <Field label={t("merchants.vmq_notify_url")} name="s_vmq_notify_url" type="url" value={value("s_vmq_notify_url", m.settings.vmq_notify_url ?? "")} error={e["setting:vmq_notify_url"]} hint={t("merchants.vmq_notify_hint")} maxlength={1024} />
            <Field label={t("merchants.vmq_return_url")} name="s_vmq_return_url" type="url" value={value("s_vmq_return_url", m.settings.vmq_return_url ?? "")} error={e["setting:vmq_return_url"]} hint={t("merchants.vmq_return_hint")} maxlength={1024} />
            <Field label={t("merchants.vmq_url_hosts")} name="s_vmq_url_hosts" value={value("s_vmq_url_hosts", m.settings.vmq_url_hosts ?? "")} error={e["setting:vmq_url_hosts"]} hint={t("merchants.vmq_hosts_hint")} maxlength={1024} />
          </div>
          <button class="btn btn-primary" type="submit" safe>{t("merchants.save")}</button>
        </form>

        <div class="card-grid">
          <div class="card" id="merchant-status">
            <h2 safe>{t("merchants.status_heading")}</h2>
            <p safe>{t(m.active ? "merchants.status_active" : "merchants.status_inactive")}</p>
            <form method="post" action={`${base}/${m.active ? "disable" : "enable"}`} data-confirm={m.active ? t("merchants.disable_confirm") : undefined}>
              <CsrfInput csrf={ctx.csrf} />
              <button class={m.active ? "btn btn-danger" : "btn"} type="submit" safe>{t(m.active ? "merchants.disable" : "merchants.enable")}</button>
            </form>
          </div>

          <div class="card" id="merchant-secret">
            <h2 safe>{t("merchants.secret_heading")}</h2>
            <p class="muted" safe>{t("merchants.secret_hint")}</p>
            <form method="post" action={`${base}/rotate-secret`} data-confirm={t("merchants.rotate_confirm")}>
              <CsrfInput csrf={ctx.csrf} />
              <button class="btn btn-danger" type="submit" safe>{t("merchants.rotate")}</button>
            </form>
          </div>

          <form method="post" action={`${base}/keys`} class="card" id="merchant-keys">
            <h2 safe>{t("merchants.keys_heading")}</h2>
            <p class="muted" safe>{t("merchants.keys_hint")}</p>
            {fingerprint ? (
              <p>
                <span safe>{t("merchants.keys_fingerprint")}</span> <code class="mono" id="key-fingerprint" safe>{fingerprint}</code>
              </p>
            ) : (
              <p class="faint" safe>{t("merchants.keys_none")}</p>
            )}
            <CsrfInput csrf={ctx.csrf} />
            {m.rsaPublicKey ? (
              <div class="field">
                <label class="check">
                  <input type="checkbox" name="replace" value="1" aria-invalid={o.keysError ? "true" : undefined} /> <span safe>{t("merchants.keys_confirm_label")}</span>
                </label>
                {o.keysError ? <p class="field-error" safe>{o.keysError}</p> : ""}
              </div>
            ) : (
              ""
            )}
            <button class={m.rsaPublicKey ? "btn btn-danger" : "btn"} type="submit" safe>{t(m.rsaPublicKey ? "merchants.keys_replace" : "merchants.keys_generate")}</button>
          </form>
        </div>
      </section>
    ),
  });
}

async function save(ctx: AdminContext): Promise<Response> {
  const pid = pidOf(ctx);
  const settings = Object.fromEntries(MERCHANT_KEYS.map((k) => [k, ctx.form.get(`s_${k}`) ?? ""]));
  const r = await updateMerchantOptions(ctx.gw, ctx.actor, pid, { name: ctx.form.get("name") ?? "", notifyMethod: ctx.form.get("notify_method") ?? "", settings });
  if (r.kind === "not_found") return errorAnswer(ctx, 404, ctx.t("merchants.not_found"));
  if (r.kind === "refused") {
    const errors: Errors = {};
    for (const p of r.problems) errors[p.field] ??= merchantProblemText(ctx.t, p);
    return merchantPage(ctx, { form: ctx.form, errors, status: 422 });
  }
  return seeOther(`/admin/merchants/${pid}?done=saved`);
}

function toggle(active: boolean) {
  return async (ctx: AdminContext): Promise<Response> => {
    const m = await setMerchantActive(ctx.gw, ctx.actor, pidOf(ctx), active);
    if (!m) return errorAnswer(ctx, 404, ctx.t("merchants.not_found"));
    return seeOther(`/admin/merchants/${m.pid}?done=${active ? "enabled" : "disabled"}`);
  };
}

async function rotate(ctx: AdminContext): Promise<Response> {
  const r = await rotateSecret(ctx.gw, ctx.actor, pidOf(ctx));
  if (r.kind !== "rotated") return errorAnswer(ctx, 404, ctx.t("merchants.not_found"));
  return SecretShownOnce(ctx, {
    heading: ctx.t("merchants.rotated_heading"),
    line: ctx.t("merchants.rotated_line", { pid: r.merchant.pid }),
    pid: r.merchant.pid,
    values: [{ id: "new-secret", label: ctx.t("merchants.secret_new"), value: r.secret }],
    again: true,
  });
}

async function keys(ctx: AdminContext): Promise<Response> {
  const pid = pidOf(ctx);
  const r = await newMerchantKeys(ctx.gw, ctx.actor, pid, { replace: ctx.form.get("replace") === "1" });
  if (r.kind === "not_found") return errorAnswer(ctx, 404, ctx.t("merchants.not_found"));
  if (r.kind === "has_keys") return merchantPage(ctx, { keysError: ctx.t("merchants.keys_confirm_required"), status: 422 });
  const t = ctx.t;
  return SecretShownOnce(ctx, {
    heading: t("merchants.keys_done_heading"),
    line: t(r.replaced ? "merchants.keys_replaced_line" : "merchants.keys_new_line", { pid }),
    pid,
    values: [
      { id: "private-key", label: t("merchants.private_key"), value: r.privateKey },
      { id: "public-key", label: `${t("merchants.public_key")} (${r.fingerprint})`, value: r.publicKey, secret: false },
      { id: "platform-key", label: t("merchants.platform_key"), value: r.platformPublicKey, secret: false },
    ],
  });
}

const DONE = { saved: "merchants.saved", enabled: "merchants.enabled_done", disabled: "merchants.disabled_done" } as const;

export const merchantPageRoutes: AdminRoute[] = [
  {
    method: "GET",
    path: "/admin/merchants/:pid",
    handle: (ctx) => {
      const done = ctx.query.get("done") as keyof typeof DONE | null;
      return merchantPage(ctx, { notice: done && done in DONE ? ctx.t(DONE[done]) : undefined });
    },
  },
];

export const merchantActions: AdminRoute[] = [
  { method: "POST", path: "/admin/merchants/:pid", handle: save },
  { method: "POST", path: "/admin/merchants/:pid/enable", handle: toggle(true) },
  { method: "POST", path: "/admin/merchants/:pid/disable", handle: toggle(false) },
  { method: "POST", path: "/admin/merchants/:pid/rotate-secret", handle: rotate },
  { method: "POST", path: "/admin/merchants/:pid/keys", handle: keys },
  ...deliveryRoutes((ctx, box, status) => merchantPage(ctx, { deliveryBox: box, status })),
];
