/** @jsxImportSource @kitajs/html */
// The setup helper's secrets (pages/client-setup.tsx): the merchant's AppSecret and each V免签
// client's HOST/KEY, masked until the operator asks. The "show" buttons are POST forms (htmx swaps
// the box; without script the page reloads) answered by client-setup.tsx's reveal action, which
// audits first; the V免签 QR code is drawn into a data: image of that answer only.
import QRCode from "qrcode";
import { vmqConfigText } from "../../core/clients/setup.ts";
import type { KeyedClient } from "../../core/store.ts";
import { attr, CsrfInput, Notice } from "../components.tsx";
import type { AdminContext } from "../context.ts";

const HIDDEN = "••••••••••••••••";

export function Copyable(p: { id: string; text: string; ctx: AdminContext }) {
  return (
    <span class="cl-secret">
      <code id={p.id} safe>{p.text}</code>
      <button class="btn btn-small" type="button" data-copy={`#${p.id}`} data-copied={p.ctx.t("csetup.copied")} safe>{p.ctx.t("csetup.copy")}</button>
    </span>
  );
}

function RevealForm(p: { ctx: AdminContext; pid: number; vmq?: number; target: string; label: string }) {
  return (
    <form method="post" action="/admin/clients/setup/reveal" hx-post="/admin/clients/setup/reveal" hx-target={`#${p.target}`} hx-swap="outerHTML" hx-confirm={p.ctx.t("csetup.reveal_confirm")}>
      <CsrfInput csrf={p.ctx.csrf} />
      <input type="hidden" name="pid" value={String(p.pid)} />
      {p.vmq !== undefined ? <input type="hidden" name="vmq" value={String(p.vmq)} /> : ""}
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

export async function VmqBox(p: { ctx: AdminContext; c: KeyedClient; host: string; revealed?: boolean }) {
  const { t } = p.ctx;
  const id = `vmq-${p.c.id}`;
  const accounts = p.c.accountIds.length ? p.c.accountIds.map((a) => `#${a}`).join(", ") : t("csetup.vmq_all");
  const head = (
    <p>
      <strong safe>{p.c.name}</strong> <span class="muted" safe>{t("csetup.vmq_accounts", { a: accounts })}</span>
    </p>
  );
  if (!p.revealed) {
    return (
      <div id={id} class="cl-vmq" data-vmq={String(p.c.id)}>
        {head}
        <div class="cl-secret">
          <code safe>{`${p.host}/${HIDDEN}`}</code>
          <RevealForm ctx={p.ctx} pid={p.c.pid} vmq={p.c.id} target={id} label={t("csetup.vmq_reveal")} />
          <span class="muted" safe>{t("csetup.reveal_cli")}</span> <code safe>{`xpay client show-vmq ${p.c.name}`}</code>
        </div>
      </div>
    );
  }
  const config = vmqConfigText(p.host, p.c.key);
  // A data: image (the console's CSP allows img-src data:): the key never sits at a URL a GET could fetch.
  const qr = await QRCode.toDataURL(config, { errorCorrectionLevel: "M", margin: 2, width: 240 });
  return (
    <div id={id} class="cl-vmq" data-vmq={String(p.c.id)}>
      {head}
      <div class="cl-qr">
        <img src={attr(qr)} alt={attr(config)} width="200" height="200" id={`${id}-qr`} />
        <div>
          <p class="muted" safe>{t("csetup.vmq_config")}</p>
          <Copyable id={`${id}-config`} text={config} ctx={p.ctx} />
          <Notice kind="warn" text={t("csetup.revealed")} />
        </div>
      </div>
    </div>
  );
}
