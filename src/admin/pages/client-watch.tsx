/** @jsxImportSource @kitajs/html */
// A keyed client's page (client-page.tsx) binds it to the accounts its phone watches and removes
// it: the same core bindClient / removeClient as `xpay client bind|remove` (audited as client.bind,
// client.remove; the report groups are recomputed there). Plain POST forms that redirect (the
// facts at the top of the page change too); a refused binding shows the page again with the
// reason under the checkboxes (422), nothing changed.
import { bindClient, bindingIssue, removeClient } from "../../core/clients/keyed.ts";
import { findClient } from "../../core/clients/overview.ts";
import type { KeyedClient } from "../../core/store.ts";
import { CsrfInput, Notice } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import { seeOther } from "../http.ts";
import { errorAnswer } from "../render.tsx";
import { type AccountChoices, AccountChoice, accountChoices, bindingIssueText, tickedAccounts } from "./client-accounts.tsx";

/** The binding form shown again: what was ticked and why it was refused. */
export interface WatchState {
  checked: number[];
  error: string;
}

export function WatchCard(p: { ctx: AdminContext; monitorId: number; c: KeyedClient; watching: number; choices: AccountChoices; state?: WatchState; saved?: boolean }) {
  const { t } = p.ctx;
  const action = `/admin/clients/${p.monitorId}`;
  return (
    <section class="card" id="watch">
      <h2 safe>{t("keyed.watch_heading")}</h2>
      <p class="muted" safe>{t("keyed.watch_lead")}</p>
      {p.saved ? <Notice kind="ok" id="watch-saved" text={t("keyed.bind_saved")} /> : ""}
      <p id="watch-now" safe>{p.c.accountIds.length ? t("keyed.watch_bound", { n: p.c.accountIds.length }) : t("keyed.watch_unbound", { n: p.watching })}</p>
      <form method="post" action={`${action}/bind`} id="bind-form">
        <CsrfInput csrf={p.ctx.csrf} />
        <AccountChoice t={t} id="f-bind" label={t("client.accounts")} hint={t("keyed.watch_hint")} choices={p.choices} checked={p.state?.checked ?? p.c.accountIds} error={p.state?.error} />
        <div class="actions">
          <button class="btn btn-primary" type="submit" safe>{t("keyed.bind_save")}</button>
          {p.c.accountIds.length ? <button class="btn" type="submit" name="unbind" value="1" safe>{t("keyed.unbind")}</button> : ""}
        </div>
      </form>
      <div class="cl-danger">
        <h3 safe>{t("keyed.remove_heading")}</h3>
        <p class="muted" safe>{t(p.c.kind === "vmq" ? "keyed.remove_lead_vmq" : "keyed.remove_lead")}</p>
        <form method="post" action={`${action}/remove`} id="remove-form" data-confirm={t("keyed.remove_confirm", { name: p.c.name })}>
          <CsrfInput csrf={p.ctx.csrf} />
          <button class="btn btn-danger" type="submit" safe>{t("keyed.remove")}</button>
        </form>
      </div>
    </section>
  );
}

export const choicesFor = (ctx: AdminContext, c: KeyedClient) => accountChoices(ctx.gw, c.pid, { kind: c.kind, except: c.id });

const idOf = (v: string | undefined) => (v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : 0);

async function keyedRow(ctx: AdminContext) {
  const row = await findClient(ctx.gw, idOf(ctx.params.id));
  return row?.keyed ? { row, keyed: row.keyed } : null;
}

/** POST /admin/clients/:id/bind (account..., or unbind=1). `again` renders the page with the refusal. */
export function bindAction(again: (ctx: AdminContext, state: WatchState) => Promise<Response>) {
  return async (ctx: AdminContext): Promise<Response> => {
    const found = await keyedRow(ctx);
    if (!found) return errorAnswer(ctx, 404, ctx.t("client.not_found"));
    const { row, keyed } = found;
    const ticked = ctx.form.get("unbind") === "1" ? [] : tickedAccounts(ctx.form);
    if (ticked === null) return again(ctx, { checked: [], error: ctx.t("keyed.p_no_account", { id: "?" }) });
    const issue = await bindingIssue(ctx.gw, keyed.kind, keyed.pid, ticked);
    if (issue) return again(ctx, { checked: ticked, error: bindingIssueText(ctx.t, issue) });
    const r = await bindClient(ctx.gw, ctx.actor, keyed.id, ticked);
    if (!r.ok) return errorAnswer(ctx, 404, ctx.t("client.not_found")); // removed meanwhile
    return seeOther(`/admin/clients/${row.client.id}?done=bound#watch`);
  };
}

/** POST /admin/clients/:id/remove: the client and its secret are gone; back to the list. */
export async function removeAction(ctx: AdminContext): Promise<Response> {
  const found = await keyedRow(ctx);
  if (!found) return errorAnswer(ctx, 404, ctx.t("client.not_found"));
  const r = await removeClient(ctx.gw, ctx.actor, found.keyed.id);
  if (!r.ok) return errorAnswer(ctx, 404, ctx.t("client.not_found"));
  return seeOther("/admin/clients?done=removed");
}
