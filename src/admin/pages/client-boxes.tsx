/** @jsxImportSource @kitajs/html */
// One box per keyed client on the setup page: what its app is configured with, in the app's own
// screen and field names. SmsForwarder's box says what `xpay client add-smsforwarder` prints
// (cli/client-setup.ts printSetup): 发送通道 → + → Webhook, 请求方式 POST, Webhook Server (the
// client's own URL), Secret, 消息模板 (empty, or the JSON template), then 测试. A report client's box
// gives its report URLs (the owner's pid in them) and its secret. Secrets stay masked until the
// audited reveal (client-setup.tsx), or show once in the answer of the add form that made them.
import { clientReportUrls, SMS_JSON_TEMPLATE, vmqPlace, webhookPlace } from "../../core/clients/setup.ts";
import type { KeyedClient } from "../../core/store.ts";
import type { ChannelAccount } from "../../core/types.ts";
import { Notice } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import { Copyable, HIDDEN, KeyedHead, RevealForm, type SecretShown, shellArg, VmqBox } from "./client-secrets.tsx";

interface BoxProps {
  ctx: AdminContext;
  c: KeyedClient;
  accounts: readonly ChannelAccount[];
  shown: SecretShown;
}

/** The base URL a phone reaches for a webhook (the server's, as the page's other URLs). */
const webhookBase = (ctx: AdminContext) => {
  const place = webhookPlace(ctx.gw.baseUrl);
  return place.ok ? place.base : ctx.gw.baseUrl;
};

/** The secret, masked with its reveal button, or shown with a copy button. */
function KeyedSecret(p: BoxProps & { box: string }) {
  const { t } = p.ctx;
  if (p.shown !== "hidden") {
    return (
      <div>
        <Copyable id={`${p.box}-secret`} text={p.c.key} ctx={p.ctx} />
        {p.shown === "revealed" ? <Notice kind="warn" text={t("csetup.revealed")} /> : ""}
      </div>
    );
  }
  return (
    <div class="cl-secret">
      <code class="faint" aria-label={t("keyed.secret_hidden")}>{HIDDEN}</code>
      <RevealForm ctx={p.ctx} pid={p.c.pid} client={p.c.id} target={p.box} label={t("keyed.reveal")} />
      <span class="muted" safe>{t("keyed.reveal_cli")}</span> <code safe>{`xpay client show ${shellArg(p.c.name)}`}</code>
    </div>
  );
}

export function SmsBox(p: BoxProps) {
  const { t } = p.ctx;
  const box = `sms-${p.c.id}`;
  const url = clientReportUrls(webhookBase(p.ctx), p.c).smsforwarder;
  return (
    <div id={box} class="cl-keyed" data-client={String(p.c.id)}>
      <KeyedHead ctx={p.ctx} c={p.c} accounts={p.accounts} />
      <p class="cl-path">
        <span safe>{t("keyed.sms_in_app")}</span> <span class="cl-ui" safe>{t("keyed.sms_senders")}</span> → <span class="cl-ui">+</span> → <span class="cl-ui">Webhook</span>
        <span safe>{t("keyed.sms_then")}</span>
      </p>
      <dl>
        <dt class="cl-ui-name" safe>{t("keyed.sms_method")}</dt>
        <dd><code id={`${box}-method`}>POST</code></dd>
        <dt class="cl-ui-name" safe>{t("keyed.sms_server")}</dt>
        <dd><Copyable id={`${box}-url`} text={url} ctx={p.ctx} /></dd>
        <dt class="cl-ui-name" safe>{t("keyed.sms_secret")}</dt>
        <dd><KeyedSecret {...p} box={box} /></dd>
        <dt class="cl-ui-name" safe>{t("keyed.sms_template")}</dt>
        <dd class="cl-template">
          <span safe>{t("keyed.sms_template_empty")}</span>
          <span class="muted" safe>{t("keyed.sms_template_or")}</span>
          <Copyable id={`${box}-template`} text={SMS_JSON_TEMPLATE} ctx={p.ctx} />
        </dd>
        <dt class="cl-ui-name" safe>{t("keyed.sms_test")}</dt>
        <dd><span safe>{t("keyed.sms_test_line")}</span></dd>
      </dl>
      <p class="muted" safe>{t("keyed.sms_rules")}</p>
    </div>
  );
}

export function ReportBox(p: BoxProps) {
  const { t } = p.ctx;
  const box = `report-${p.c.id}`;
  const urls = clientReportUrls(webhookBase(p.ctx), p.c);
  return (
    <div id={box} class="cl-keyed" data-client={String(p.c.id)}>
      <KeyedHead ctx={p.ctx} c={p.c} accounts={p.accounts} />
      <dl>
        <dt safe>{t("csetup.url_message")}</dt>
        <dd><Copyable id={`${box}-message`} text={urls.message} ctx={p.ctx} /></dd>
        <dt safe>{t("csetup.url_amount")}</dt>
        <dd><Copyable id={`${box}-amount`} text={urls.amount} ctx={p.ctx} /></dd>
        <dt safe>{t("csetup.url_heart")}</dt>
        <dd><Copyable id={`${box}-heart`} text={urls.heart} ctx={p.ctx} /></dd>
        <dt safe>{t("csetup.pid")}</dt>
        <dd><code safe>{String(p.c.pid)}</code></dd>
        <dt safe>{t("keyed.report_secret")}</dt>
        <dd><KeyedSecret {...p} box={box} /></dd>
      </dl>
    </div>
  );
}

/** The box of any keyed client (the reveal answer and the add form's answer use this). */
export async function keyedBox(p: BoxProps): Promise<JSX.Element> {
  if (p.c.kind === "smsforwarder") return <SmsBox {...p} />;
  if (p.c.kind === "report") return <ReportBox {...p} />;
  const place = vmqPlace(p.ctx.gw.baseUrl);
  return VmqBox({ ...p, host: place.ok ? place.host : p.ctx.gw.baseUrl });
}
