/** @jsxImportSource @kitajs/html */
// GET /admin/accounts/:id/slots (issue 22): the payable amounts an account's orders hold now and
// until when, with the order behind each, and a probe: for an order amount, the amounts the
// allocator would try here and the one the next order gets. Amounts are unique across the account's
// report group (the accounts one report could mean): the page names them, and the account holding
// each slot when it is another of the group. The same view as `xpay channel slots`
// (core/slots/reserved.ts), which reads the allocator's own rule. A bad amount is a 422 inline error.
import { readTypedYuan, showYuan } from "../../core/money.ts";
import { yuanText } from "../format.ts";
import { type ReservedView, reservedAmounts, SLOT_LIST_LIMIT } from "../../core/slots/reserved.ts";
import { attr, Notice, PageHead, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import type { TextKey, Translate } from "../i18n/index.ts";
import { errorAnswer, page } from "../render.tsx";
import { duration, payTypeName } from "./client-bits.tsx";

const STATUS_TAG: Record<number, string> = { 1: "tag-accent", 2: "tag-ok", 3: "", 4: "tag-warn", 5: "tag-danger" };

function Probe(p: { v: ReservedView; value: string; error?: string; t: Translate }) {
  const { v, t } = p;
  const pr = v.probe;
  return (
    <section class="card" id="probe">
      <h2 safe>{t("slots.probe")}</h2>
      <form method="get" action={`/admin/accounts/${v.account.id}/slots`} class="sl-probe" id="probe-form">
        <div class="field">
          <label for="f-amount" safe>{t("slots.probe_amount")}</label>
          <input id="f-amount" name="amount" type="text" inputmode="decimal" value={attr(p.value)} placeholder="10.00" maxlength={12}
            aria-invalid={p.error ? "true" : undefined} aria-describedby={p.error ? "f-amount-error" : undefined} />
          {p.error ? <p class="field-error" id="f-amount-error" safe>{p.error}</p> : ""}
        </div>
        <div class="actions">
          <button class="btn btn-primary" type="submit" safe>{t("slots.probe_submit")}</button>
        </div>
      </form>
      {pr ? (
        <div id="probe-result">
          <ol class="sl-steps">
            {pr.steps.map((s) => (
              <li class={s.heldBy ? "held" : s.tradeAmount === pr.next ? "next" : undefined} title={s.heldBy ? t("slots.step_held", { t: s.heldBy.tradeNo }) : t("slots.step_free")} safe>
                {yuanText(s.tradeAmount)}
              </li>
            ))}
          </ol>
          {pr.next === null ? (
            <Notice kind="error" id="probe-full" text={t("slots.probe_full", { a: yuanText(pr.amount), o: showYuan(v.maxOffset) })} />
          ) : (
            <Notice kind="ok" id="probe-next" text={t("slots.probe_next", { a: yuanText(pr.amount), n: yuanText(pr.next) })} />
          )}
        </div>
      ) : (
        ""
      )}
      <p class="hint muted" safe>{t("slots.probe_note")}</p>
    </section>
  );
}

/** Which account of the report group holds a slot: this one, or a link to the other's page. */
function HeldOn(p: { v: ReservedView; id: number; t: Translate }) {
  if (p.id === p.v.account.id) return <span class="muted" safe>{p.t("slots.this_account")}</span>;
  const a = p.v.group.find((x) => x.id === p.id);
  return <a href={`/admin/accounts/${p.id}/slots`} safe>{a ? `#${a.id} ${a.name}` : `#${p.id}`}</a>;
}

/** The report group: one report (a pay type and an amount, no account) could mean any of these accounts. */
function Group(p: { v: ReservedView; t: Translate }) {
  const { v, t } = p;
  if (v.group.length === 0) return <p class="muted" id="slots-group" safe>{t("slots.group_alone")}</p>;
  return (
    <div class="notice notice-info" id="slots-group" role="status">
      <span safe>{t("slots.group")}</span>{" "}
      {v.group.map((a, i) => (
        <span>
          {i ? "、" : ""}
          <a href={`/admin/accounts/${a.id}/slots`} safe>{`#${a.id} ${a.name} · ${payTypeName(t, a.payType)}`}</a>
        </span>
      ))}
    </div>
  );
}

function HeldTable(p: { v: ReservedView; tz: string; t: Translate }) {
  const { v, t } = p;
  if (v.slots.length === 0) return <p class="empty" id="slots-none" safe>{t("slots.none")}</p>;
  return (
    <div class="table-wrap">
      <table class="table" id="slots-table">
        <thead>
          <tr>
            <th class="num" safe>{t("slots.col_trade_amount")}</th>
            {v.group.length ? <th safe>{t("slots.col_account")}</th> : ""}
            <th safe>{t("slots.col_order")}</th>
            <th safe>{t("slots.col_out_trade_no")}</th>
            <th class="num" safe>{t("slots.col_merchant")}</th>
            <th class="num" safe>{t("slots.col_amount")}</th>
            <th safe>{t("slots.col_status")}</th>
            <th safe>{t("slots.col_ended")}</th>
            <th safe>{t("slots.col_until")}</th>
          </tr>
        </thead>
        <tbody>
          {v.slots.map((s) => (
            <tr data-slot={String(s.tradeAmount)}>
              <td class="num nowrap"><strong safe>{showYuan(s.tradeAmount)}</strong></td>
              {v.group.length ? <td class="wrap" data-held-on={String(s.accountId)}><HeldOn v={v} id={s.accountId} t={t} /></td> : ""}
              <td class="nowrap mono"><a href={`/admin/orders/${s.tradeNo}`} safe>{s.tradeNo}</a></td>
              <td class="mono sl-out" safe>{s.outTradeNo}</td>
              <td class="num" safe>{String(s.pid)}</td>
              <td class="num nowrap" safe>{showYuan(s.amount)}</td>
              <td class="nowrap"><span class={`tag ${STATUS_TAG[s.shownStatus] ?? ""}`.trim()} safe>{t(`slots.status_${s.shownStatus}` as TextKey)}</span></td>
              <td class="nowrap">{s.endedAt === null ? <span class="faint">—</span> : <Time at={s.endedAt} tz={p.tz} />}</td>
              <td class="nowrap">
                <Time at={s.heldUntil} tz={p.tz} />
                <div class="muted sl-left" safe>{t("slots.left", { d: duration(Math.max(0, s.heldUntil - v.now), t) })}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

async function showSlots(ctx: AdminContext): Promise<Response> {
  const { t } = ctx;
  const id = /^\d{1,15}$/.test(ctx.params.id ?? "") ? Number(ctx.params.id) : 0;
  const raw = (ctx.query.get("amount") ?? "").trim();
  const typed = raw === "" ? undefined : readTypedYuan("", raw);
  const probe = typed === undefined ? undefined : typed.ok ? typed.cents : null;
  const v = await reservedAmounts(ctx.gw, id, { probe: probe ?? undefined });
  if (!v) return errorAnswer(ctx, 404, t("slots.not_found"));
  const error = probe === null ? t("slots.probe_bad") : undefined;
  const a = v.account;
  return page(ctx, {
    title: t("slots.title", { name: a.name }),
    styles: ["clients.css"],
    status: error ? 422 : 200,
    children: (
      <section>
        <p class="sl-back">
          <a href="/admin/accounts" safe>{t("slots.back_accounts")}</a>
          <a href="/admin/clients" safe>{t("slots.back")}</a>
        </p>
        <PageHead title={t("slots.title", { name: `#${a.id} ${a.name}` })} lead={t("slots.lead", { w: v.matchWindow, o: v.maxOffset, dir: t(v.direction === "down" ? "slots.dir_down" : "slots.dir_up") })}>
          <span class="tag" safe>{payTypeName(t, a.payType)}</span>
        </PageHead>
        {a.enabled ? "" : <Notice kind="warn" id="slots-disabled" text={t("slots.disabled")} />}
        <Group v={v} t={t} />
        <Probe v={v} value={raw} error={error} t={t} />
        <section class="card" id="held">
          <h2 safe>{t("slots.held", { n: `${v.slots.length}${v.truncated ? "+" : ""}` })}</h2>
          <HeldTable v={v} tz={ctx.tz} t={t} />
          {v.truncated ? <p class="hint muted" safe>{t("slots.truncated", { n: SLOT_LIST_LIMIT })}</p> : ""}
        </section>
      </section>
    ),
  });
}

export const accountSlotsPage: AdminPage = {
  routes: [{ method: "GET", path: "/admin/accounts/:id/slots", handle: showSlots }],
};
