/** @jsxImportSource @kitajs/html */
// The setup helper's secrets (pages/client-setup.tsx): the merchant's AppSecret and each keyed
// client's secret (V免签's HOST/KEY, SmsForwarder's Secret, a report client's secret), masked until
// the operator asks. The "show" buttons are POST forms (htmx swaps the box; without script the page
// reloads) answered by client-setup.tsx's reveal action, which audits first; the V免签 QR code is
// drawn into a data: image of that answer only. The boxes of each kind are in client-boxes.tsx.
import { vmqConfigText } from "../../core/clients/setup.ts";
import type { KeyedClient } from "../../core/store.ts";
import type { ChannelAccount } from "../../core/types.ts";
import { attr, CsrfInput, Notice } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import { payTypeName } from "./client-bits.tsx";

export const HIDDEN = "••••••••••••••••";

/** How a keyed client's box shows its secret: masked, revealed by the audited action, or just created. */
export type SecretShown = "hidden" | "revealed" | "new";

export function Copyable(p: { id: string; text: string; ctx: AdminContext }) {
  return (
    <span class="cl-secret">
      <code id={p.id} safe>{p.text}</code>
      <button class="btn btn-small" type="button" data-copy={`#${p.id}`} data-copied={p.ctx.t("csetup.copied")} safe>{p.ctx.t("csetup.copy")}</button>
    </span>
  );
}

/** A value for a shell command line: quoted when it holds anything but plain name characters. */
export const shellArg = (v: string): string => (/^[\w.@%+=:,-]+$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`);

export function RevealForm(p: { ctx: AdminContext; pid: number; client?: number; target: string; label: string }) {
  return (
    <form method="post" action="/admin/clients/setup/reveal" hx-post="/admin/clients/setup/reveal" hx-target={`#${p.target}`} hx-swap="outerHTML" hx-confirm={p.ctx.t("csetup.reveal_confirm")}>
      <CsrfInput csrf={p.ctx.csrf} />
      <input type="hidden" name="pid" value={String(p.pid)} />
      {p.client !== undefined ? <input type="hidden" name="client" value={String(p.client)} /> : ""}
      <button class="btn btn-small" type="submit" safe>{p.label}</button>
    </form>
  );
}

export function SecretBox(p: { ctx: AdminContext; pid: number; secret?: string }) {
  const { t } = p.ctx;
  if (p.secret !== undefined) {
    return (
      <div id="secret-box">
        <Copyable id="secret-value" text={p.secret} ctx={p.ctx} />
        <Notice kind="warn" text={t("csetup.revealed")} />
      </div>
    );
  }
  return (
    <div id="secret-box" class="cl-secret">
      <code class="faint" aria-label={t("csetup.secret_hidden")}>{HIDDEN}</code>
      <RevealForm ctx={p.ctx} pid={p.pid} target="secret-box" label={t("csetup.reveal")} />
      <span class="muted" safe>{t("csetup.reveal_cli")}</span> <code safe>{`xpay merchant show ${p.pid} --show-secret`}</code>
    </div>
  );
}

/** "#3 支付宝 店铺码 · 支付宝, ..." or "unbound (...)": what a keyed client watches. */
export function watchText(ctx: AdminContext, c: KeyedClient, accounts: readonly ChannelAccount[]): string {
  if (c.accountIds.length === 0) return ctx.t("keyed.unbound");
  return c.accountIds
    .map((id) => {
      const a = accounts.find((x) => x.id === id);
      return a ? `#${id} ${a.name} · ${payTypeName(ctx.t, a.payType)}` : `#${id}`;
    })
    .join(", ");
}

/** A keyed client box's first line: its name, its owner and what it watches. */
export function KeyedHead(p: { ctx: AdminContext; c: KeyedClient; accounts: readonly ChannelAccount[] }) {
  const { t } = p.ctx;
  const owner = p.c.pid === 0 ? t("keyed.owner_operator") : t("keyed.owner_merchant", { pid: p.c.pid });
  return (
    <p class="cl-keyed-head">
      <strong safe>{p.c.name}</strong> <span class="muted" safe>{owner}</span>
      <br />
      <span class="muted" safe>{t("keyed.watches", { a: watchText(p.ctx, p.c, p.accounts) })}</span>
    </p>
  );
}

export async function VmqBox(p: { ctx: AdminContext; c: KeyedClient; host: string; accounts: readonly ChannelAccount[]; shown: SecretShown }) {
  const { t } = p.ctx;
  const id = `vmq-${p.c.id}`;
  const head = <KeyedHead ctx={p.ctx} c={p.c} accounts={p.accounts} />;
  if (p.shown === "hidden") {
    return (
      <div id={id} class="cl-vmq" data-vmq={String(p.c.id)}>
        {head}
        <div class="cl-secret">
          <code safe>{`${p.host}/${HIDDEN}`}</code>
          <RevealForm ctx={p.ctx} pid={p.c.pid} client={p.c.id} target={id} label={t("csetup.vmq_reveal")} />
          <span class="muted" safe>{t("csetup.reveal_cli")}</span> <code safe>{`xpay client show-vmq ${shellArg(p.c.name)}`}</code>
        </div>
      </div>
    );
  }
  const config = vmqConfigText(p.host, p.c.key);
  // A data: image (the console's CSP allows img-src data:): the key never sits at a URL a GET could fetch.
  const { default: QRCode } = await import("qrcode");
  const qr = await QRCode.toDataURL(config, { errorCorrectionLevel: "M", margin: 2, width: 240 });
  return (
    <div id={id} class="cl-vmq" data-vmq={String(p.c.id)}>
      {head}
      <div class="cl-qr">
        <img src={attr(qr)} alt={attr(config)} width="200" height="200" id={`${id}-qr`} />
        <div>
          <p class="muted" safe>{t("csetup.vmq_config")}</p>
          <Copyable id={`${id}-config`} text={config} ctx={p.ctx} />
          {p.shown === "revealed" ? <Notice kind="warn" text={t("csetup.revealed")} /> : ""}
        </div>
      </div>
    </div>
  );
}
