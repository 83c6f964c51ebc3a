/** @jsxImportSource @kitajs/html */
// /admin/merchants: every merchant with its status, notification method, V2 keys, order counts,
// income today / 7 / 30 days and notification delivery, and the form that adds one. A new merchant's AppSecret is answered once, on the page the POST
// returns (merchant-once.tsx), never through a redirect to a page that could show it again.
import { grouped } from "../format.ts";
import { addMerchant, type MerchantRow, merchantOverview } from "../../core/merchant-admin.ts";
import { incomeOf, type MerchantIncome, merchantIncome } from "../../core/stats/merchant-income.ts";
import type { MerchantDelivery } from "../../core/store.ts";
import { CsrfInput, Field, Notice, PageHead, Time } from "../components.tsx";
import type { Merchant } from "../../core/types.ts";
import type { AdminContext, AdminPage } from "../context.ts";
import type { TextKey } from "../i18n/index.ts";
import { page } from "../render.tsx";
import { IncomeCell } from "./merchant-api.tsx";
import { DeliveryCell } from "./merchant-delivery.tsx";
import { SecretShownOnce } from "./merchant-once.tsx";
import { merchantActions, merchantPageRoutes } from "./merchant-page.tsx";
import { type Errors, merchantProblemText } from "./merchant-problems.ts";

/** The method each family really sends with: epay and V免签 always GET, hashpay POST, native the merchant's choice. */
function NotifyMethods(p: { ctx: AdminContext; merchant: Merchant }) {
  const all = p.ctx.gw.families.methods(p.merchant);
  return (
    <span class="notify-methods">
      {(["GET", "POST"] as const).map((method) => {
        const names = all.filter((x) => x.method === method).map((x) => p.ctx.t(`merchants.fam.${x.family}` as TextKey));
        return names.length === 0 ? "" : <span class="notify-method" data-method={method}><code>{method}</code> <span safe>{names.join(" · ")}</span></span>;
      })}
    </span>
  );
}

function MerchantsTable(p: { ctx: AdminContext; rows: MerchantRow[]; income: Map<number, MerchantIncome>; delivery: Map<number, MerchantDelivery> }) {
  const { ctx, rows } = p;
  const t = ctx.t;
  return (
    <div class="table-wrap">
      <table class="table" id="merchants-table">
        <thead>
          <tr>
            <th class="num" safe>{t("merchants.col_pid")}</th>
            <th safe>{t("merchants.col_name")}</th>
            <th safe>{t("merchants.col_status")}</th>
            <th safe>{t("merchants.col_notify")}</th>
            <th safe>{t("merchants.col_v2")}</th>
            <th class="num" safe>{t("merchants.col_orders")}</th>
            <th class="num" safe>{t("merchants.col_today")}</th>
            <th safe>{t("delivery.col_income")}</th>
            <th safe>{t("delivery.col")}</th>
            <th class="m-created" safe>{t("merchants.col_created")}</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colspan="11" class="empty" safe>{t("merchants.empty")}</td>
            </tr>
          ) : (
            rows.map(({ merchant: m, orders }) => (
              <tr data-pid={String(m.pid)}>
                <td class="num mono"><a href={`/admin/merchants/${m.pid}`} safe>{String(m.pid)}</a></td>
                <td class="wrap" safe>{m.name}</td>
                <td>{m.active ? <span class="tag tag-ok" safe>{t("merchants.active")}</span> : <span class="tag tag-danger" safe>{t("merchants.inactive")}</span>}</td>
                <td class="nowrap m-hide-phone"><NotifyMethods ctx={ctx} merchant={m} /></td>
                <td class="m-hide-phone">{m.rsaPublicKey ? <span class="tag tag-accent" safe>{t("merchants.v2_set")}</span> : <span class="faint" safe>{t("merchants.v2_none")}</span>}</td>
                <td class="num m-hide-phone" safe>{grouped(orders.total)}</td>
                <td class="num m-hide-phone" safe>{grouped(orders.today)}</td>
                <td class="nowrap m-wide"><IncomeCell income={incomeOf(p.income, m.pid)} t={t} /></td>
                <td class="m-wide">{p.delivery.has(m.pid) ? <DeliveryCell d={p.delivery.get(m.pid)!} t={t} tz={ctx.tz} /> : ""}</td>
                <td class="nowrap m-hide-phone m-created"><Time at={m.createdAt} tz={ctx.tz} /></td>
                <td class="nowrap"><a class="btn btn-small" href={`/admin/merchants/${m.pid}`} safe>{t("merchants.manage")}</a></td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

function AddForm(p: { ctx: AdminContext; form?: URLSearchParams; errors?: Errors }) {
  const { ctx } = p;
  const t = ctx.t;
  const e = p.errors ?? {};
  return (
    <form method="post" action="/admin/merchants" class="card manage-form" id="merchant-add">
      <h2 safe>{t("merchants.add_heading")}</h2>
      <p class="muted" safe>{t("merchants.add_hint")}</p>
      {Object.keys(e).length > 0 ? <Notice kind="error" text={t("merchants.fix_errors")} /> : ""}
      <CsrfInput csrf={ctx.csrf} />
      <div class="form-row">
        <Field label={t("merchants.name")} name="name" value={p.form?.get("name") ?? ""} error={e.name} required maxlength={128} />
        <Field label={t("merchants.pid")} name="pid" value={p.form?.get("pid") ?? ""} error={e.pid} hint={t("merchants.pid_hint")} />
      </div>
      <button class="btn btn-primary" type="submit" safe>{t("merchants.add_submit")}</button>
    </form>
  );
}

async function listPage(ctx: AdminContext, o: { form?: URLSearchParams; errors?: Errors; status?: number } = {}): Promise<Response> {
  const rows = await merchantOverview(ctx.gw);
  const [income, delivery] = [await merchantIncome(ctx.gw), new Map((await ctx.gw.store.deliveryHealth()).map((d) => [d.pid, d]))];
  const t = ctx.t;
  return page(ctx, {
    title: t("merchants.title"),
    status: o.status,
    styles: ["manage.css"],
    children: (
      <section>
        <PageHead title={t("merchants.title")} lead={t("merchants.intro")}>
          <a class="btn btn-primary" href="#merchant-add" safe>{t("merchants.add_heading")}</a>
        </PageHead>
        <MerchantsTable ctx={ctx} rows={rows} income={income} delivery={delivery} />
        <AddForm ctx={ctx} form={o.form} errors={o.errors} />
      </section>
    ),
  });
}

async function add(ctx: AdminContext): Promise<Response> {
  const pidText = (ctx.form.get("pid") ?? "").trim();
  const pid = pidText === "" ? undefined : /^\d{1,9}$/.test(pidText) && Number(pidText) >= 1 ? Number(pidText) : null;
  if (pid === null) return listPage(ctx, { form: ctx.form, errors: { pid: ctx.t("merchants.bad_pid") }, status: 422 });
  const r = await addMerchant(ctx.gw, ctx.actor, { name: ctx.form.get("name") ?? "", pid });
  if (r.kind === "refused") {
    const errors: Errors = {};
    for (const problem of r.problems) errors[problem.field] ??= merchantProblemText(ctx.t, problem);
    return listPage(ctx, { form: ctx.form, errors, status: 422 });
  }
  const m = r.merchant;
  return SecretShownOnce(ctx, {
    heading: ctx.t("merchants.added_heading"),
    line: ctx.t("merchants.added_line", { pid: m.pid, name: m.name }),
    pid: m.pid,
    values: [{ id: "new-secret", label: ctx.t("merchants.secret_new"), value: m.secret }],
    again: true,
  });
}

export const merchantsPage: AdminPage = {
  nav: { path: "/admin/merchants", label: "nav.merchants", order: 40 },
  routes: [
    { method: "GET", path: "/admin/merchants", handle: (ctx) => listPage(ctx) },
    { method: "POST", path: "/admin/merchants", handle: add },
    ...merchantPageRoutes,
    ...merchantActions,
  ],
};
