/** @jsxImportSource @kitajs/html */
// /admin/clients/setup?pid=: what a monitoring client is configured with, for one owner (a merchant,
// or 0: the operator, whose phones watch the shared accounts): a form that adds a phone with a
// secret of its own, then one box per keyed client in its app's own words (SmsForwarder,
// V免签 as a QR code, report clients), the merchant's AppSecret reports, the third-account URLs,
// and the owner's reports of the last 30 minutes, refreshed by htmx, so the operator pays a cent
// and watches it arrive. Secrets are not on the page: "show" is a POST (CSRF, audited by core)
// answering with the secret; the CLI command that prints it is named beside each button. The
// one exception is the answer of the add form, which shows the secret it just made, once.
import { revealClientKey } from "../../core/clients/keyed.ts";
import { reportUrls, revealMerchantSecret, vmqPlace, webhookPlace } from "../../core/clients/setup.ts";
import type { KeyedClient, KeyedKind } from "../../core/store.ts";
import { Notice, PageHead } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { seeOther } from "../http.ts";
import { errorAnswer, fragment, page } from "../render.tsx";
import { accountChoices } from "./client-accounts.tsx";
import { AddForm, addFromForm, type AddState } from "./client-add.tsx";
import { keyedBox } from "./client-boxes.tsx";
import { LiveReports } from "./client-page.tsx";
import { SecretBox } from "./client-secrets.tsx";
import { MerchantSecretPart, type Owner, OwnerPicker, ReportRules, ThirdCard } from "./client-setup-parts.tsx";

const LIVE_SECONDS = 1800;
const LIVE_ROWS = 20;
const intParam = (v: string | null | undefined) => (v && /^\d{1,15}$/.test(v) ? Number(v) : null);

interface Shown {
  /** The merchant's AppSecret, after its reveal. */
  secret?: string;
  /** The keyed client whose secret was just revealed (audited). */
  revealed?: number;
  /** The client the add form just made: its box on top, secret shown once. */
  added?: KeyedClient;
  /** The add form again, with its errors. */
  add?: AddState;
}

/** The owner asked for: a merchant, the operator (0), or null when the pid names neither. */
async function ownerOf(ctx: AdminContext, pid: number | null): Promise<{ owners: Owner[]; owner: Owner | null }> {
  const merchants = await ctx.gw.store.listMerchants();
  const owners: Owner[] = [...merchants.map((m) => ({ pid: m.pid, name: m.name })), { pid: 0, name: null }];
  return { owners, owner: owners.find((o) => o.pid === (pid ?? owners[0]!.pid)) ?? null };
}

async function renderSetup(ctx: AdminContext, pidAsked: number | null, shown: Shown = {}, badPid = false): Promise<Response> {
  const { t, gw } = ctx;
  const { owners, owner } = await ownerOf(ctx, pidAsked);
  const head = <PageHead title={t("csetup.title")} lead={t("csetup.intro")} />;
  const noMerchant = owners.length === 1 ? <Notice kind="info" id="no-merchant" text={t("csetup.no_merchant")} /> : "";
  if (!owner || badPid) {
    return page(ctx, {
      title: t("csetup.title"),
      styles: ["clients.css"],
      status: 422,
      children: (
        <section class="cl-setup">
          <p><a href="/admin/clients" safe>{t("client.back")}</a></p>
          {head}
          <OwnerPicker ctx={ctx} owners={owners} pid={null} error={t("csetup.unknown_merchant")} />
        </section>
      ),
    });
  }
  const pid = owner.pid;
  const [all, keyed, s] = await Promise.all([gw.store.listChannels(), gw.store.listKeyedClients(), gw.settings()]);
  const mine = keyed.filter((c) => c.pid === pid && c.id !== shown.added?.id);
  // The client just added is shown on top, its secret once; its card points there.
  const above = (kind: KeyedKind) => (shown.added?.kind === kind ? [<p class="muted" safe>{t("keyed.added_above", { name: shown.added.name })}</p>] : []);
  const boxes = async (kind: KeyedKind) => [
    ...above(kind),
    ...(await Promise.all(mine.filter((c) => c.kind === kind).map((c) => keyedBox({ ctx, c, accounts: all, shown: shown.revealed === c.id ? "revealed" : "hidden" })))),
  ];
  const [safeSms, safeVmq, safeReport] = await Promise.all([boxes("smsforwarder"), boxes("vmq"), boxes("report")]);
  const safeAdded = shown.added ? await keyedBox({ ctx, c: shown.added, accounts: all, shown: "new" }) : "";
  const place = webhookPlace(gw.baseUrl);
  const notes = place.ok ? place.notes : [];
  const loopback = notes.some((n) => n.code === "loopback");
  const plain = notes.find((n) => n.code === "plain_http");
  const ownerText = pid === 0 ? t("keyed.operator") : `${pid} ${owner.name ?? ""}`.trim();
  const cmd = (what: string) => <code safe>{`xpay client ${what} --name phone1 --pid ${pid} --base-url ${gw.baseUrl}`}</code>;
  const now = gw.clock.now();
  const live = await gw.store.devices.merchantReports(pid, { since: now - LIVE_SECONDS, limit: LIVE_ROWS });
  return page(ctx, {
    title: t("csetup.title"),
    styles: ["clients.css"],
    status: shown.add ? 422 : 200,
    children: (
      <section class="cl-setup">
        <p><a href="/admin/clients" safe>{t("client.back")}</a></p>
        {head}
        {noMerchant}
        <OwnerPicker ctx={ctx} owners={owners} pid={pid} />
        {loopback ? <Notice kind="warn" id="note-loopback" text={t("csetup.note_loopback", { url: gw.baseUrl })} /> : ""}
        {shown.added ? (
          <section class="card cl-added" id="added">
            <h2 safe>{t("keyed.added", { name: shown.added.name })}</h2>
            <Notice kind="warn" text={t("keyed.added_lead")} />
            {safeAdded}
          </section>
        ) : (
          ""
        )}
        <AddForm ctx={ctx} pid={pid} owner={ownerText} choices={await accountChoices(gw, pid)} state={shown.add} open={shown.add !== undefined || mine.length === 0} />
        <section class="card" id="smsforwarder">
          <h2 safe>{t("keyed.sms_heading")}</h2>
          <p class="muted" safe>{t("keyed.sms_lead")}</p>
          {plain?.code === "plain_http" ? <Notice kind="warn" id="note-plain-http" text={t("keyed.note_plain_http", { host: `http://${plain.host}` })} /> : ""}
          {safeSms.length ? safeSms : <p id="sms-none"><span safe>{t("keyed.sms_none")}</span> {cmd("add-smsforwarder")}</p>}
        </section>
        <section class="card" id="vmq">
          <h2 safe>{t("csetup.vmq")}</h2>
          <p class="muted" safe>{t("csetup.vmq_lead")}</p>
          <VmqNotes ctx={ctx} />
          {safeVmq.length ? safeVmq : <p id="vmq-none"><span safe>{t("keyed.vmq_none")}</span> {cmd("add-vmq")}</p>}
        </section>
        <section class="card" id="forwarder">
          <h2 safe>{t("keyed.report_heading")}</h2>
          <p class="muted" safe>{t("keyed.report_lead")}</p>
          {safeReport.length ? safeReport : <p id="report-none"><span safe>{t("keyed.report_none")}</span> {cmd("add-report")}</p>}
          <ReportRules ctx={ctx} window={s.int("timestamp_window")} />
          {pid > 0 ? <MerchantSecretPart ctx={ctx} pid={pid} on={s.str("report_merchant_secret") === "1"} urls={reportUrls(gw.baseUrl, pid)} secret={shown.secret} /> : ""}
        </section>
        <ThirdCard ctx={ctx} urls={reportUrls(gw.baseUrl, pid)} set={s.str("third_account_secret") !== ""} />
        <section class="card" id="live-card">
          <h2 safe>{t("csetup.live")}</h2>
          <p class="muted" safe>{t("csetup.live_lead")}</p>
          <LiveReports ctx={ctx} id="live" url={`/admin/clients/setup/live?pid=${pid}`} reports={live} since={live[0]?.id ?? 0} from={now} now={now} empty={t("csetup.live_none")} />
        </section>
      </section>
    ),
  });
}

/** Where the V免签 app (plain HTTP, at the host's root) would not reach xpay. */
function VmqNotes(p: { ctx: AdminContext }) {
  const { t, gw } = p.ctx;
  const place = vmqPlace(gw.baseUrl);
  const notes = place.ok ? place.notes : [];
  return (
    <div>
      {notes.map((n) =>
        n.code === "path" ? <Notice kind="warn" text={t("csetup.note_path", { host: n.host, path: n.path })} /> : n.code === "https" ? <Notice kind="warn" text={t("csetup.note_https", { host: n.host })} /> : "",
      )}
    </div>
  );
}

async function showSetup(ctx: AdminContext): Promise<Response> {
  const raw = ctx.query.get("pid");
  const pid = intParam(raw);
  return renderSetup(ctx, pid, {}, raw !== null && raw !== "" && pid === null);
}

/** POST pid (and client): the merchant's AppSecret, or that keyed client's secret (V免签: with its QR code); audited. */
async function reveal(ctx: AdminContext): Promise<Response> {
  const { t, gw } = ctx;
  const pid = intParam(ctx.form.get("pid"));
  // `vmq` is the field's older name (V免签 was the only keyed client).
  const clientId = intParam(ctx.form.get("client")) ?? intParam(ctx.form.get("vmq"));
  if (pid === null) return errorAnswer(ctx, 422, t("csetup.unknown_merchant"));
  if (clientId !== null) {
    const c = await gw.store.getKeyedClient(clientId);
    if (!c || c.pid !== pid) return errorAnswer(ctx, 404, t("client.not_found"));
    const shown = (await revealClientKey(gw, ctx.actor, c.id)) ?? c;
    if (!ctx.htmx) return renderSetup(ctx, pid, { revealed: c.id });
    return fragment(await keyedBox({ ctx, c: shown, accounts: await gw.store.listChannels(), shown: "revealed" }));
  }
  const secret = await revealMerchantSecret(gw, ctx.actor, pid);
  if (secret === null) return errorAnswer(ctx, 404, t("csetup.unknown_merchant"));
  if (!ctx.htmx) return renderSetup(ctx, pid, { secret });
  return fragment(<SecretBox ctx={ctx} pid={pid} secret={secret} />);
}

/** POST pid, kind, name, account...: adds a keyed client (audited by core); the page with its box, or the form with its errors. */
async function add(ctx: AdminContext): Promise<Response> {
  const pid = intParam(ctx.form.get("pid"));
  const { owner } = await ownerOf(ctx, pid);
  if (pid === null || !owner) return renderSetup(ctx, null, {}, true);
  const r = await addFromForm(ctx, pid);
  return renderSetup(ctx, pid, r.ok ? { added: r.client } : { add: r.state });
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
    { method: "POST", path: "/admin/clients/setup/add", handle: add },
  ],
};
