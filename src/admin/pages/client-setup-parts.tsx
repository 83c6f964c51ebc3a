/** @jsxImportSource @kitajs/html */
// Parts of the setup page (client-setup.tsx) that do not depend on keyed clients: the owner picker
// (every merchant, and 0: the operator, whose phones watch the shared accounts), the merchant's
// AppSecret reports (the spec's report API, when report_merchant_secret allows them: the URLs,
// pid, the message body and the MD5 rule) and the third-party account watcher's URLs.
import type { ReportUrls } from "../../core/clients/setup.ts";
import { Notice } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import { Copyable, SecretBox } from "./client-secrets.tsx";

/** A merchant (name) or the operator (pid 0, name null). */
export interface Owner {
  pid: number;
  name: string | null;
}

export function OwnerPicker(p: { ctx: AdminContext; owners: Owner[]; pid: number | null; error?: string }) {
  const { t } = p.ctx;
  return (
    <form method="get" action="/admin/clients/setup" class="filters" id="setup-merchant">
      <div class="field">
        <label for="f-pid" safe>{t("csetup.merchant")}</label>
        <select id="f-pid" name="pid" aria-invalid={p.error ? "true" : undefined} aria-describedby={p.error ? "f-pid-error" : undefined}>
          {p.owners.map((o) => (
            <option value={String(o.pid)} selected={o.pid === p.pid} safe>{o.pid === 0 ? t("keyed.operator_option") : `${o.pid} ${o.name ?? ""}`}</option>
          ))}
        </select>
        {p.error ? <p class="field-error" id="f-pid-error" safe>{p.error}</p> : ""}
      </div>
      <div class="actions">
        <button class="btn" type="submit" safe>{t("csetup.choose")}</button>
      </div>
    </form>
  );
}

/** The body of a notification report (POST /api/report/{pid}), as the report API takes it. */
function bodyTemplate(): string {
  const content = JSON.stringify({ from: "[from]", package_name: "[package_name]", app_name: "[app_name]", title: "[title]", msg: "[msg]", receive_time: "[receive_time]", device_name: "[device_name]" });
  return JSON.stringify({ from: "shop-phone", content, timestamp: "[timestamp]", sign: "[sign]" }, null, 2);
}

/** The report API's message body and MD5 rule: report clients and the AppSecret both sign this way. */
export function ReportRules(p: { ctx: AdminContext; window: number }) {
  const { t } = p.ctx;
  return (
    <div id="report-rules">
      <h3 safe>{t("csetup.body")}</h3>
      <pre class="cl-code" id="body-template" safe>{bodyTemplate()}</pre>
      <h3 safe>{t("csetup.sign")}</h3>
      <p safe>{t("csetup.sign_rule", { w: p.window })}</p>
    </div>
  );
}

/** Reports signed with the merchant's AppSecret (the spec's way): its URLs and the AppSecret, or "turned off". */
export function MerchantSecretPart(p: { ctx: AdminContext; pid: number; on: boolean; urls: ReportUrls; secret?: string }) {
  const { t } = p.ctx;
  return (
    <div id="merchant-secret">
      <h3 safe>{t("keyed.merchant_heading")}</h3>
      <p class="muted" safe>{t("keyed.merchant_lead")}</p>
      {p.on ? (
        <dl>
          <dt safe>{t("csetup.url_message")}</dt>
          <dd><Copyable id="url-message" text={p.urls.message} ctx={p.ctx} /></dd>
          <dt safe>{t("csetup.pid")}</dt>
          <dd><code id="setup-pid" safe>{String(p.pid)}</code></dd>
          <dt safe>{t("csetup.secret")}</dt>
          <dd><SecretBox ctx={p.ctx} pid={p.pid} secret={p.secret} /></dd>
          <dt safe>{t("csetup.url_heart")}</dt>
          <dd><Copyable id="url-heart" text={p.urls.heart} ctx={p.ctx} /></dd>
          <dt safe>{t("csetup.url_amount")}</dt>
          <dd><Copyable id="url-amount" text={p.urls.amount} ctx={p.ctx} /></dd>
        </dl>
      ) : (
        <Notice kind="info" id="merchant-secret-off" text={t("keyed.merchant_off")} />
      )}
    </div>
  );
}

export function ThirdCard(p: { ctx: AdminContext; urls: ReportUrls; set: boolean }) {
  const { t } = p.ctx;
  return (
    <section class="card" id="third">
      <h2 safe>{t("csetup.third")}</h2>
      <p class="muted" safe>{t("csetup.third_lead")}</p>
      <dl>
        <dt safe>{t("csetup.url_third")}</dt>
        <dd><Copyable id="url-third" text={p.urls.thirdAccount} ctx={p.ctx} /></dd>
        <dt safe>{t("csetup.url_third_heart")}</dt>
        <dd><Copyable id="url-third-heart" text={p.urls.thirdAccountHeart} ctx={p.ctx} /></dd>
      </dl>
      {p.set ? (
        <p id="third-set" safe>{t("csetup.third_set")}</p>
      ) : (
        <p id="third-unset"><span safe>{t("csetup.third_unset")}</span> <code>xpay settings set third_account_secret '...'</code></p>
      )}
    </section>
  );
}
