/** @jsxImportSource @kitajs/html */
// The answer that shows a new AppSecret or a new V2 private key, on the page the POST that made it
// returns (the guard sends Cache-Control: no-store, so the browser keeps no copy), with a copy
// button. What it says about later must be true: the V2 private key is not stored, so it is never
// shown again; the AppSecret is stored (it verifies every request) and the phone setup helper
// reveals it again on an audited POST, so the page says where (`again`).
import { Notice } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import { page } from "../render.tsx";

export interface ShownValue {
  /** The element id the copy button names. */
  id: string;
  label: string;
  value: string;
  /** Shown once (a secret): marked and warned about; public keys are not. */
  secret?: boolean;
}

export function SecretShownOnce(ctx: AdminContext, o: { heading: string; line: string; pid: number; values: ShownValue[]; warn?: string; again?: boolean }): Response {
  const t = ctx.t;
  return page(ctx, {
    title: o.heading,
    styles: ["manage.css"],
    children: (
      <section id="shown-once">
        <div class="page-head">
          <h1 safe>{o.heading}</h1>
        </div>
        <p class="lead" safe>{o.line}</p>
        {o.warn ? <Notice kind="warn" text={o.warn} /> : ""}
        <div class="card once-card">
          {o.again ? (
            <p class="notice notice-warn once-warning" role="alert" id="secret-again">
              <strong safe>{t("merchants.again_title")}</strong> <span safe>{t("merchants.again_warning")}</span>{" "}
              <a href={`/admin/clients/setup?pid=${o.pid}`} safe>{t("merchants.again_link")}</a>
              <span safe>{t("merchants.again_cli")}</span> <code safe>{`xpay merchant show ${o.pid} --show-secret`}</code>
            </p>
          ) : (
            <p class="notice notice-warn once-warning" role="alert">
              <strong safe>{t("merchants.once_title")}</strong> <span safe>{t("merchants.once_warning")}</span>
            </p>
          )}
          {o.values.map((v) => (
            <div class={v.secret === false ? "once-value" : "once-value once-secret"}>
              <div class="once-head">
                <span class="once-label" safe>{v.label}</span>
                <button class="btn btn-small" type="button" data-copy={`#${v.id}`} data-copied={t("merchants.copied")} safe>{t("merchants.copy")}</button>
              </div>
              <pre class="once-text" id={v.id} safe>{v.value}</pre>
            </div>
          ))}
        </div>
        <p>
          <a class="btn btn-primary" href={`/admin/merchants/${o.pid}`} safe>{t("merchants.to_merchant")}</a>
        </p>
      </section>
    ),
  });
}
