/** @jsxImportSource @kitajs/html */
// The accounts a keyed client may watch, as checkboxes: the add form on the setup page and the
// binding form on a client's page share them. The choice is the client's scope (watch.ts inScope:
// a merchant's phone its own and the shared accounts, the operator's every account; V免签 only
// WeChat and Alipay), each account marked with the clients already bound to it. What the operator
// ticks is checked again by core bindingIssue, whose refusal is worded here.
import type { BindingIssue } from "../../core/clients/keyed.ts";
import { inScope } from "../../core/clients/watch.ts";
import type { Gateway } from "../../core/gateway.ts";
import type { KeyedKind } from "../../core/store.ts";
import type { ChannelAccount } from "../../core/types.ts";
import type { Translate } from "../i18n/index.ts";
import { payTypeName } from "./client-bits.tsx";

export interface AccountChoices {
  accounts: ChannelAccount[];
  /** Other keyed clients' names bound to each account. */
  boundTo: Map<number, string[]>;
}

/**
 * The accounts a client of `kind` owned by `pid` may watch; without a kind (the add form, before
 * one is chosen), a report client's scope, where V免签 would only refuse the other pay types.
 */
export async function accountChoices(gw: Gateway, pid: number, o: { kind?: KeyedKind; except?: number } = {}): Promise<AccountChoices> {
  const [all, clients] = await Promise.all([gw.store.listChannels(), gw.store.listKeyedClients()]);
  const accounts = all.filter((a) => inScope({ kind: o.kind ?? "report", pid, accountIds: [] }, a));
  const boundTo = new Map<number, string[]>();
  for (const c of clients) {
    if (c.id === o.except) continue;
    for (const id of c.accountIds) boundTo.set(id, [...(boundTo.get(id) ?? []), c.name]);
  }
  return { accounts, boundTo };
}

/** The ticked account ids; null when one is not an id at all (a hand-made form). */
export function tickedAccounts(form: URLSearchParams): number[] | null {
  const raw = form.getAll("account");
  if (raw.some((v) => !/^\d{1,9}$/.test(v))) return null;
  return [...new Set(raw.map(Number))];
}

export function bindingIssueText(t: Translate, i: BindingIssue): string {
  if (i.code === "no_account") return t("keyed.p_no_account", { id: i.id });
  if (i.code === "vmq_pay_type") return t("keyed.p_vmq_pay_type", { id: i.id, payType: payTypeName(t, i.payType) });
  return t("keyed.p_other_merchant", { id: i.id, owner: i.owner });
}

const VMQ_TYPES = ["wxpay", "alipay"];

export function AccountChoice(p: { t: Translate; id: string; label: string; hint: string; choices: AccountChoices; checked: readonly number[]; error?: string; markVmq?: boolean }) {
  const { t, choices } = p;
  return (
    <fieldset class="field cl-choice" id={p.id} aria-describedby={p.error ? `${p.id}-error` : `${p.id}-hint`}>
      <legend safe>{p.label}</legend>
      {choices.accounts.length === 0 ? (
        <p class="faint" safe>{t("keyed.add_no_accounts")}</p>
      ) : (
        <ul>
          {choices.accounts.map((a) => {
            const bound = choices.boundTo.get(a.id);
            return (
              <li>
                <label>
                  <input type="checkbox" name="account" value={String(a.id)} checked={p.checked.includes(a.id)} aria-invalid={p.error ? "true" : undefined} />
                  <span class="cl-choice-name" safe>{`#${a.id} ${a.name}`}</span>
                  <span class="muted" safe>{`${payTypeName(t, a.payType)} · ${a.pid === 0 ? t("keyed.shared") : t("accounts.owner_pid", { pid: a.pid })}`}</span>
                  {bound ? <span class="tag" safe>{t("keyed.bound_to", { names: bound.join(", ") })}</span> : ""}
                  {p.markVmq && !VMQ_TYPES.includes(a.payType) ? <span class="faint small" safe>{t("keyed.vmq_only")}</span> : ""}
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {p.error ? <p class="field-error" id={`${p.id}-error`} safe>{p.error}</p> : ""}
      <p class="hint" id={`${p.id}-hint`} safe>{p.hint}</p>
    </fieldset>
  );
}
