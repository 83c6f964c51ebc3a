/** @jsxImportSource @kitajs/html */
// The setup page's "add a phone" form: kind (SmsForwarder, report client, V免签), name and the
// accounts it watches, for the owner the page shows (a merchant, or 0: the operator). It adds
// through core addClient, as `xpay client add-smsforwarder|add-report|add-vmq` do (audited as
// client.add); each refusal is worded here and shown under its field (422, nothing written).
// The answer is built by client-setup.tsx: the page with the new client's box, secret shown once.
import { addClient, bindingIssue, KEYED_KINDS, validClientName } from "../../core/clients/keyed.ts";
import type { KeyedClient, KeyedKind } from "../../core/store.ts";
import { attr, CsrfInput, Notice } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import type { TextKey } from "../i18n/index.ts";
import { type AccountChoices, AccountChoice, bindingIssueText, tickedAccounts } from "./client-accounts.tsx";

/** What the form holds when it is shown again with its errors. */
export interface AddState {
  kind: string;
  name: string;
  accounts: number[];
  errors: { kind?: string; name?: string; accounts?: string; form?: string };
}

const KIND_TEXT: Record<KeyedKind, TextKey> = { smsforwarder: "keyed.add_kind_smsforwarder", report: "keyed.add_kind_report", vmq: "keyed.add_kind_vmq" };
const KIND_ORDER: readonly KeyedKind[] = ["smsforwarder", "report", "vmq"];

export function AddForm(p: { ctx: AdminContext; pid: number; owner: string; choices: AccountChoices; state?: AddState; open: boolean }) {
  const { t } = p.ctx;
  const s = p.state ?? { kind: "smsforwarder", name: "", accounts: [], errors: {} };
  const e = s.errors;
  return (
    <details class="card cl-add" id="add" open={p.open}>
      <summary><h2 safe>{t("keyed.add_heading")}</h2></summary>
      <p class="muted" safe>{t("keyed.add_lead")}</p>
      {Object.keys(e).length ? <Notice kind="error" id="add-errors" text={e.form ?? t("keyed.fix_errors")} /> : ""}
      <form method="post" action="/admin/clients/setup/add" id="add-form">
        <CsrfInput csrf={p.ctx.csrf} />
        <input type="hidden" name="pid" value={String(p.pid)} />
        <p class="cl-owner" safe>{t("keyed.add_owner", { owner: p.owner })}</p>
        <fieldset class="field cl-kinds" aria-describedby={e.kind ? "f-kind-error" : undefined}>
          <legend safe>{t("keyed.add_kind")}</legend>
          {KIND_ORDER.map((k) => (
            <label>
              <input type="radio" name="kind" value={k} checked={s.kind === k} aria-invalid={e.kind ? "true" : undefined} />
              <span safe>{t(KIND_TEXT[k])}</span>
            </label>
          ))}
          {e.kind ? <p class="field-error" id="f-kind-error" safe>{e.kind}</p> : ""}
        </fieldset>
        <div class="field">
          <label for="f-client-name" safe>{t("keyed.add_name")}</label>
          <input id="f-client-name" name="name" type="text" value={attr(s.name)} maxlength={64} required
            aria-invalid={e.name ? "true" : undefined} aria-describedby={e.name ? "f-client-name-error" : "f-client-name-hint"} />
          {e.name ? <p class="field-error" id="f-client-name-error" safe>{e.name}</p> : ""}
          <p class="hint" id="f-client-name-hint" safe>{t("keyed.add_name_hint")}</p>
        </div>
        <AccountChoice t={t} id="f-accounts" label={t("keyed.add_accounts")} hint={t("keyed.add_accounts_hint")} choices={p.choices} checked={s.accounts} error={e.accounts} markVmq />
        <div class="actions">
          <button class="btn btn-primary" type="submit" safe>{t("keyed.add_submit")}</button>
        </div>
      </form>
    </details>
  );
}

/** Checks the form as addClient would, in the console's words, then adds; the client or the form's state. */
export async function addFromForm(ctx: AdminContext, pid: number): Promise<{ ok: true; client: KeyedClient } | { ok: false; state: AddState }> {
  const { t, gw, form } = ctx;
  const kindRaw = form.get("kind") ?? "";
  const name = (form.get("name") ?? "").trim();
  const ticked = tickedAccounts(form);
  const state: AddState = { kind: kindRaw, name, accounts: ticked ?? [], errors: {} };
  const kind = KEYED_KINDS.find((k) => k === kindRaw);
  if (!kind) state.errors.kind = t("keyed.p_kind");
  if (name === "") state.errors.name = t("keyed.p_name_empty");
  else if (!validClientName(name)) state.errors.name = t("keyed.p_name_bad");
  else if ((await gw.store.listKeyedClients()).some((c) => c.name === name)) state.errors.name = t("keyed.p_name_taken", { name });
  if (ticked === null) state.errors.accounts = t("keyed.p_no_account", { id: "?" });
  else if (kind) {
    const issue = await bindingIssue(gw, kind, pid, ticked);
    if (issue) state.errors.accounts = bindingIssueText(t, issue);
  }
  if (!kind || Object.keys(state.errors).length) return { ok: false, state };
  const r = await addClient(gw, ctx.actor, { kind, pid, name, accountIds: ticked ?? [] });
  if (!r.ok) return { ok: false, state: { ...state, errors: { form: t("keyed.p_refused") } } };
  return { ok: true, client: r.client };
}
