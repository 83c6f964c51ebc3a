/** @jsxImportSource @kitajs/html */
// /admin/clients/setup?pid=: what a monitoring client is configured with, in the form the apps
// take: the report URLs, pid, the webhook body and signature rule of SmsForwarder-style apps, the
// V免签 app's HOST/KEY as a QR code, the third-account URLs; and the merchant's reports of the
// last 30 minutes, refreshed by htmx, so the operator pays a cent and watches it arrive.
// Secrets are not on the page: "show" is a POST (CSRF, audited by core/clients/setup.ts) that
// answers with the secret (and the V免签 QR code, which holds the key); the CLI command that
// prints it is named beside the button.
import { reportUrls, revealMerchantSecret, vmqPlace } from "../../core/clients/setup.ts";
import { revealClientKey } from "../../core/clients/keyed.ts";
import type { Merchant } from "../../core/types.ts";
import { Notice, PageHead } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, fragment, page } from "../render.tsx";
import { LiveReports } from "./client-page.tsx";
import { Copyable, SecretBox, VmqBox } from "./client-secrets.tsx";

const LIVE_SECONDS = 1800;
const LIVE_ROWS = 20;
const intParam = (v: string | null | undefined) => (v && /^\d{1,15}$/.test(v) ? Number(v) : null);

function bodyTemplate(): string {
  const content = JSON.stringify({ from: "[from]", package_name: "[package_name]", app_name: "[app_name]", title: "[title]", msg: "[msg]", receive_time: "[receive_time]", device_name: "[device_name]" });
  return JSON.stringify({ from: "shop-phone", content, timestamp: "[timestamp]", sign: "[sign]" }, null, 2);
}

function MerchantPicker(p: { ctx: AdminContext; merchants: Merchant[]; pid: number | null; error?: string }) {
  const { t } = p.ctx;
  return (
    <form method="get" action="/admin/clients/setup" class="filters" id="setup-merchant">
      <div class="field">
        <label for="f-pid" safe>{t("csetup.merchant")}</label>
        <select id="f-pid" name="pid" aria-invalid={p.error ? "true" : undefined} aria-describedby={p.error ? "f-pid-error" : undefined}>
          {p.merchants.map((m) => <option value={String(m.pid)} selected={m.pid === p.pid} safe>{`${m.pid} ${m.name}`}</option>)}
        </select>
        {p.error ? <p class="field-error" id="f-pid-error" safe>{p.error}</p> : ""}
      </div>
      <div class="actions">
        <button class="btn" type="submit" safe>{t("csetup.choose")}</button>
      </div>
    </form>
  );
}

interface Shown {
  secret?: string;
  vmq?: number;
}

async function renderSetup(ctx: AdminContext, pidAsked: number | null, shown: Shown = {}, badPid = false): Promise<Response> {
  const { t, gw } = ctx;
  const merchants = await gw.store.listMerchants();
  const merchant = pidAsked === null ? merchants[0] : merchants.find((m) => m.pid === pidAsked);
  const unknown = badPid || (pidAsked !== null && !merchant);
  const head = <PageHead title={t("csetup.title")} lead={t("csetup.intro")} />;
  if (merchants.length === 0 || !merchant || unknown) {
    return page(ctx, {
      title: t("csetup.title"),
      styles: ["clients.css"],
      status: unknown ? 422 : 200,
      children: (
        <section>
          <p><a href="/admin/clients" safe>{t("client.back")}</a></p>
          {head}
          {merchants.length === 0 ? <Notice kind="info" text={t("csetup.no_merchant")} /> : <MerchantPicker ctx={ctx} merchants={merchants} pid={null} error={t("csetup.unknown_merchant")} />}
        </section>
      ),
    });
  }
  const s = await gw.settings();
  const urls = reportUrls(gw.baseUrl, merchant.pid);
  const place = vmqPlace(gw.baseUrl);
  const host = place.ok ? place.host : gw.baseUrl;
  const notes = place.ok ? place.notes : [];
  const loopback = notes.some((n) => n.code === "loopback");
  const vmqs = (await gw.store.listKeyedClients()).filter((c) => c.pid === merchant.pid);
  const safeVmq = await Promise.all(vmqs.map((c) => VmqBox({ ctx, c, host, revealed: shown.vmq === c.id })));
  const now = gw.clock.now();
  const live = await gw.store.devices.merchantReports(merchant.pid, { since: now - LIVE_SECONDS, limit: LIVE_ROWS });
  return page(ctx, {
    title: t("csetup.title"),
    styles: ["clients.css"],
    children: (
      <section class="cl-setup">
        <p><a href="/admin/clients" safe>{t("client.back")}</a></p>
        {head}
        <MerchantPicker ctx={ctx} merchants={merchants} pid={merchant.pid} />
        {loopback ? <Notice kind="warn" id="note-loopback" text={t("csetup.note_loopback", { url: gw.baseUrl })} /> : ""}
        <section class="card" id="forwarder">
          <h2 safe>{t("csetup.forwarder")}</h2>
          <p class="muted" safe>{t("csetup.forwarder_lead")}</p>
          <dl>
            <dt safe>{t("csetup.url_message")}</dt>
            <dd><Copyable id="url-message" text={urls.message} ctx={ctx} /></dd>
            <dt safe>{t("csetup.pid")}</dt>
            <dd><code id="setup-pid" safe>{String(merchant.pid)}</code></dd>
            <dt safe>{t("csetup.secret")}</dt>
            <dd><SecretBox ctx={ctx} pid={merchant.pid} secret={shown.secret} /></dd>
            <dt safe>{t("csetup.url_heart")}</dt>
            <dd><Copyable id="url-heart" text={urls.heart} ctx={ctx} /></dd>
            <dt safe>{t("csetup.url_amount")}</dt>
            <dd><Copyable id="url-amount" text={urls.amount} ctx={ctx} /></dd>
          </dl>
          <h3 safe>{t("csetup.body")}</h3>
          <pre class="cl-code" id="body-template" safe>{bodyTemplate()}</pre>
          <h3 safe>{t("csetup.sign")}</h3>
          <p safe>{t("csetup.sign_rule", { w: s.int("timestamp_window") })}</p>
        </section>
        <section class="card" id="vmq">
          <h2 safe>{t("csetup.vmq")}</h2>
          <p class="muted" safe>{t("csetup.vmq_lead")}</p>
          {notes.map((n) => (n.code === "path" ? <Notice kind="warn" text={t("csetup.note_path", { host: n.host, path: n.path })} /> : n.code === "https" ? <Notice kind="warn" text={t("csetup.note_https", { host: n.host })} /> : ""))}
          {vmqs.length === 0 ? (
            <p id="vmq-none">
              <span safe>{t("csetup.vmq_none")}</span> <code safe>{`xpay client add-vmq --name phone1 --pid ${merchant.pid} --base-url ${gw.baseUrl}`}</code>
            </p>
          ) : (
            safeVmq
          )}
        </section>
        <section class="card" id="third">
          <h2 safe>{t("csetup.third")}</h2>
          <p class="muted" safe>{t("csetup.third_lead")}</p>
          <dl>
            <dt safe>{t("csetup.url_third")}</dt>
            <dd><Copyable id="url-third" text={urls.thirdAccount} ctx={ctx} /></dd>
            <dt safe>{t("csetup.url_third_heart")}</dt>
            <dd><Copyable id="url-third-heart" text={urls.thirdAccountHeart} ctx={ctx} /></dd>
          </dl>
          {s.str("third_account_secret") ? (
            <p id="third-set" safe>{t("csetup.third_set")}</p>
          ) : (
            <p id="third-unset"><span safe>{t("csetup.third_unset")}</span> <code>xpay settings set third_account_secret '...'</code></p>
          )}
        </section>
        <section class="card" id="live-card">
          <h2 safe>{t("csetup.live")}</h2>
          <p class="muted" safe>{t("csetup.live_lead")}</p>
          <LiveReports ctx={ctx} id="live" url={`/admin/clients/setup/live?pid=${merchant.pid}`} reports={live} since={live[0]?.id ?? 0} from={now} now={now} empty={t("csetup.live_none")} />
        </section>
      </section>
    ),
  });
}

async function showSetup(ctx: AdminContext): Promise<Response> {
  const raw = ctx.query.get("pid");
  const pid = intParam(raw);
  return renderSetup(ctx, pid, {}, raw !== null && raw !== "" && pid === null);
}

/** POST pid (and vmq): shows that merchant's AppSecret, or that V免签 client's key and QR code; audited. */
async function reveal(ctx: AdminContext): Promise<Response> {
  const { t, gw } = ctx;
  const pid = intParam(ctx.form.get("pid"));
  const vmqId = intParam(ctx.form.get("vmq"));
  if (pid === null) return errorAnswer(ctx, 422, t("csetup.unknown_merchant"));
  if (vmqId !== null) {
    const c = await gw.store.getKeyedClient(vmqId);
    if (!c || c.pid !== pid) return errorAnswer(ctx, 404, t("client.not_found"));
    await revealClientKey(gw, ctx.actor, c.id);
    if (!ctx.htmx) return renderSetup(ctx, pid, { vmq: c.id });
    const place = vmqPlace(gw.baseUrl);
    return fragment(await VmqBox({ ctx, c, host: place.ok ? place.host : gw.baseUrl, revealed: true }));
  }
  const secret = await revealMerchantSecret(gw, ctx.actor, pid);
  if (secret === null) return errorAnswer(ctx, 404, t("csetup.unknown_merchant"));
  if (!ctx.htmx) return renderSetup(ctx, pid, { secret });
  return fragment(<SecretBox ctx={ctx} pid={pid} secret={secret} />);
}

async function pollLive(ctx: AdminContext): Promise<Response> {
  const pid = intParam(ctx.query.get("pid"));
  if (!ctx.htmx || pid === null) return seeOther(`/admin/clients/setup${pid === null ? "" : `?pid=${pid}`}`);
  const now = ctx.gw.clock.now();
  const reports = await ctx.gw.store.devices.merchantReports(pid, { since: now - LIVE_SECONDS, limit: LIVE_ROWS });
  const since = intParam(ctx.query.get("since")) ?? 0;
  const from = Math.min(intParam(ctx.query.get("from")) ?? now, now);
  return fragment(<LiveReports ctx={ctx} id="live" url={`/admin/clients/setup/live?pid=${pid}`} reports={reports} since={since} from={from} now={now} empty={ctx.t("csetup.live_none")} />);
}

export const clientSetupPage: AdminPage = {
  routes: [
    { method: "GET", path: "/admin/clients/setup", handle: showSetup },
    { method: "GET", path: "/admin/clients/setup/live", handle: pollLive },
    { method: "POST", path: "/admin/clients/setup/reveal", handle: reveal },
  ],
};
