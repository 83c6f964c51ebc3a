/** @jsxImportSource @kitajs/html */
// GET /admin/orders: orders newest first under a filter (status, merchant, pay type, account,
// creation dates in the operator's zone, one search box), read by store.browse.searchOrders with
// keyset paging: "next page" carries the last row's (created_at, trade_no), "newest" drops it. No
// OFFSET and no total count, so page 500 of a million orders costs what page 1 costs. The filter is
// parsed by core/browse/order-query.ts (the CLI's `order list` too); a bad value is a 422 with its
// message under its field, and no rows. Above the table the filter's totals (loaded after the page),
// beside each row its notification, below it the bulk actions (orders-bulk.tsx).
import { encodeCursor, filterQueryString, ORDER_FILTER_FIELDS, type OrderFilterCode, type OrderFilterField, parseOrderFilter } from "../../core/browse/order-query.ts";
import { STATUS_WORDS } from "../../core/order-state.ts";
import { PAY_TYPES } from "../../core/order-input.ts";
import type { ChannelAccount, Merchant, Order } from "../../core/types.ts";
import { attr, Notice, PageHead, Pager, Time } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import type { TextKey, Translate } from "../i18n/index.ts";
import { page } from "../render.tsx";
import type { NotificationState } from "../../core/browse/store.ts";
import { payTypeName, StatusBadge, yuan } from "./order-bits.tsx";
import { BulkForm, type BulkState, doneNotice, NotifyCell, TotalsSlot } from "./orders-bulk.tsx";

export const ORDERS_PAGE_SIZE = 50;

const PROBLEM_TEXT: Record<OrderFilterCode, TextKey> = {
  bad_status: "orders.e_bad_status", bad_pid: "orders.e_bad_pid", unknown_pid: "orders.e_unknown_pid", bad_pay_type: "orders.e_bad_pay_type",
  bad_account: "orders.e_bad_account", unknown_account: "orders.e_unknown_account", bad_date: "orders.e_bad_date",
  range_reversed: "orders.e_range_reversed", bad_search: "orders.e_bad_search", bad_cursor: "orders.e_bad_cursor",
  bad_ip: "olist.e_bad_ip", bad_amount: "olist.e_bad_amount", amount_reversed: "olist.e_amount_reversed",
};

type Values = Partial<Record<OrderFilterField, string>>;
type Errors = Partial<Record<OrderFilterField, string>>;

interface Option {
  value: string;
  label: string;
}

function Select(p: { name: OrderFilterField; label: string; value?: string; options: Option[]; any: string; error?: string }) {
  const id = `f-${p.name}`;
  return (
    <div class="field">
      <label for={id} safe>{p.label}</label>
      <select id={id} name={p.name} aria-invalid={p.error ? "true" : undefined} aria-describedby={p.error ? `${id}-error` : undefined}>
        <option value="" safe>{p.any}</option>
        {p.options.map((o) => <option value={attr(o.value)} selected={o.value === p.value} safe>{o.label}</option>)}
      </select>
      {p.error ? <p class="field-error" id={`${id}-error`} safe>{p.error}</p> : ""}
    </div>
  );
}

function TextInput(p: { name: OrderFilterField; label: string; value?: string; placeholder: string; error?: string; wide?: boolean }) {
  const id = `f-${p.name}`;
  return (
    <div class={p.wide ? "field field-wide" : "field"}>
      <label for={id} safe>{p.label}</label>
      <input id={id} name={p.name} type={p.wide ? "search" : "text"} value={attr(p.value ?? "")} placeholder={attr(p.placeholder)} maxlength={64}
        aria-invalid={p.error ? "true" : undefined} aria-describedby={p.error ? `${id}-error` : undefined} />
      {p.error ? <p class="field-error" id={`${id}-error`} safe>{p.error}</p> : ""}
    </div>
  );
}

function FilterForm(p: { values: Values; errors: Errors; merchants: Merchant[]; accounts: ChannelAccount[]; t: Translate; tz: string }) {
  const { t, values: v, errors: e } = p;
  // Known pay types first, then any other an account uses; a typed value stays selectable.
  const payTypes = [...new Set([...PAY_TYPES, ...p.accounts.map((a) => a.payType), ...(v.pay_type && !e.pay_type ? [v.pay_type] : [])])];
  return (
    <form method="get" action="/admin/orders" class="filters" id="orders-filter">
      <TextInput name="q" label={t("orders.f_q")} value={v.q} placeholder={t("orders.f_q_placeholder")} error={e.q} wide />
      <Select name="status" label={t("orders.f_status")} value={v.status} any={t("orders.f_any")} error={e.status}
        options={Object.entries(STATUS_WORDS).map(([word, n]) => ({ value: word, label: t(`orders.status_${n}` as TextKey) }))} />
      <Select name="pid" label={t("orders.f_pid")} value={v.pid} any={t("orders.f_any")} error={e.pid}
        options={p.merchants.map((m) => ({ value: String(m.pid), label: `${m.pid} ${m.name}` }))} />
      <Select name="pay_type" label={t("orders.f_pay_type")} value={v.pay_type} any={t("orders.f_any")} error={e.pay_type}
        options={payTypes.map((x) => ({ value: x, label: payTypeName(t, x) }))} />
      <Select name="account" label={t("orders.f_account")} value={v.account} any={t("orders.f_any")} error={e.account}
        options={p.accounts.map((a) => ({ value: String(a.id), label: `#${a.id} ${a.name}` }))} />
      <TextInput name="from" label={t("orders.f_from")} value={v.from} placeholder={t("orders.f_date_placeholder")} error={e.from} />
      <TextInput name="to" label={t("orders.f_to")} value={v.to} placeholder={t("orders.f_date_placeholder")} error={e.to} />
      <TextInput name="paid_from" label={t("olist.f_paid_from")} value={v.paid_from} placeholder={t("orders.f_date_placeholder")} error={e.paid_from} />
      <TextInput name="paid_to" label={t("olist.f_paid_to")} value={v.paid_to} placeholder={t("orders.f_date_placeholder")} error={e.paid_to} />
      <TextInput name="amount_min" label={t("olist.f_amount_min")} value={v.amount_min} placeholder={t("olist.f_amount_placeholder")} error={e.amount_min} />
      <TextInput name="amount_max" label={t("olist.f_amount_max")} value={v.amount_max} placeholder={t("olist.f_amount_placeholder")} error={e.amount_max} />
      <TextInput name="ip" label={t("olist.f_ip")} value={v.ip} placeholder={t("olist.f_ip_placeholder")} error={e.ip} />
      <div class="actions">
        <button class="btn btn-primary" type="submit" safe>{t("orders.f_apply")}</button>
        <a class="btn" href="/admin/orders" safe>{t("orders.f_clear")}</a>
      </div>
    </form>
  );
}

function OrdersTable(p: { rows: Order[]; merchants: Map<number, Merchant>; notes: Map<string, NotificationState>; now: number; t: Translate; tz: string; empty: string; csrf: string }) {
  const { t } = p;
  return (
    <div class="table-wrap cards">
      <table class="table" id="orders-table">
        <thead>
          <tr>
            <th class="select-col"><input type="checkbox" data-select-all="trade_no" aria-label={attr(t("olist.bulk_heading"))} /></th>
            <th safe>{t("orders.col_trade_no")}</th>
            <th safe>{t("orders.col_out_trade_no")}</th>
            <th safe>{t("orders.col_merchant")}</th>
            <th safe>{t("orders.col_pay_type")}</th>
            <th class="num" safe>{t("orders.col_amount")}</th>
            <th class="num" safe>{t("orders.col_trade_amount")}</th>
            <th safe>{t("orders.col_status")}</th>
            <th safe>{t("orders.col_created")}</th>
            <th safe>{t("olist.col_notify")}</th>
          </tr>
        </thead>
        <tbody>
          {p.rows.length === 0 ? (
            <tr>
              <td colspan="10" class="empty" safe>{p.empty}</td>
            </tr>
          ) : (
            p.rows.map((o) => (
              <tr data-trade-no={o.tradeNo}>
                <td class="select-col c-lead"><input type="checkbox" name="trade_no" value={o.tradeNo} form="orders-bulk" aria-label={attr(t("olist.select", { no: o.tradeNo }))} /></td>
                <td class="nowrap mono c-title"><a href={`/admin/orders/${o.tradeNo}`} safe>{o.tradeNo}</a></td>
                <td data-label={t("orders.col_out_trade_no")}>
                  <span class="mono" safe>{o.outTradeNo}</span>
                  <span class="cell-sub" title={attr(o.name)} safe>{o.name}</span>
                </td>
                <td class="nowrap" data-label={t("orders.col_merchant")}>
                  <span safe>{String(o.pid)}</span> <span class="muted" safe>{p.merchants.get(o.pid)?.name ?? ""}</span>
                </td>
                <td class="nowrap" data-label={t("orders.col_pay_type")} safe>{payTypeName(t, o.payType)}</td>
                <td class="num nowrap c-key" data-label={t("orders.col_amount")} data-cell="amount" safe>{yuan(o.amount)}</td>
                <td class="num nowrap c-key" data-label={t("orders.col_trade_amount")} safe>{yuan(o.tradeAmount)}</td>
                <td class="nowrap c-badge"><StatusBadge order={o} now={p.now} t={t} /></td>
                <td class="nowrap" data-label={t("orders.col_created")}><Time at={o.createdAt} tz={p.tz} /></td>
                <td class="nowrap" data-label={t("olist.col_notify")}><NotifyCell order={o} n={p.notes.get(o.tradeNo)} t={t} csrf={p.csrf} /></td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The list's filter from the query string, checked against the merchants and accounts that exist. */
export async function listFilter(ctx: AdminContext) {
  const [merchants, accounts] = [await ctx.gw.store.listMerchants(), await ctx.gw.store.listChannels()];
  const input = Object.fromEntries(ORDER_FILTER_FIELDS.map((f) => [f, ctx.query.get(f)]));
  const parsed = parseOrderFilter(input, ctx.tz, { pids: merchants.map((m) => m.pid), accountIds: accounts.map((a) => a.id) });
  const errors: Errors = Object.fromEntries(Object.entries(parsed.problems).map(([f, x]) => [f, ctx.t(PROBLEM_TEXT[x!.code])]));
  return { merchants, accounts, parsed, errors, bad: Object.keys(errors).length > 0 };
}

export async function listOrders(ctx: AdminContext, o: { bulk?: BulkState; status?: number } = {}): Promise<Response> {
  const { gw, t } = ctx;
  const { merchants, accounts, parsed, errors, bad } = await listFilter(ctx);
  const now = gw.clock.now();
  // One row more than a page says whether a next page exists.
  const rows = bad ? [] : await gw.store.browse.searchOrders({ ...parsed.filter, limit: ORDERS_PAGE_SIZE + 1, now });
  const shown = rows.slice(0, ORDERS_PAGE_SIZE);
  const notes = new Map((await gw.store.browse.notificationStates(shown.map((r) => r.tradeNo))).map((n) => [n.tradeNo, n]));
  const qs = filterQueryString(parsed.values);
  const last = shown.at(-1);
  const filtered = Object.keys(parsed.values).some((f) => f !== "after");
  const link = (after?: string) => `/admin/orders${filterQueryString(parsed.values, after) ? `?${filterQueryString(parsed.values, after)}` : ""}`;
  return page(ctx, {
    title: t("orders.title"),
    status: o.status ?? (bad ? 422 : 200),
    styles: ["orders.css"],
    scripts: ["orders.js"],
    children: (
      <section>
        <PageHead title={t("orders.title")} lead={t("orders.intro")}>
          <a class="btn" id="orders-export" href={`/admin/orders/export.csv${qs ? `?${qs}` : ""}`} safe>{t("olist.export")}</a>
        </PageHead>
        <FilterForm values={parsed.values} errors={errors} merchants={merchants} accounts={accounts} t={t} tz={ctx.tz} />
        <p class="filter-note" safe>{t("orders.f_zone", { zone: ctx.tz })}</p>
        {bad ? <Notice kind="error" text={errors.after ?? t("orders.fix_filter")} id="filter-error" /> : <TotalsSlot qs={qs} t={t} />}
        {doneNotice(ctx)}
        <OrdersTable rows={shown} merchants={new Map(merchants.map((m) => [m.pid, m]))} notes={notes} now={now} t={t} tz={ctx.tz} csrf={ctx.csrf}
          empty={t(bad ? "orders.none" : filtered ? "orders.none_filtered" : parsed.filter.after ? "orders.none" : "orders.none_at_all")} />
        <Pager
          newer={parsed.filter.after ? link() : null}
          older={rows.length > ORDERS_PAGE_SIZE && last ? link(encodeCursor(last)) : null}
          newerLabel={t("orders.newest")}
          olderLabel={t("orders.next")}
        />
        {shown.length > 0 ? <BulkForm ctx={ctx} qs={filterQueryString(parsed.values, parsed.values.after)} state={o.bulk} /> : ""}
      </section>
    ),
  });
}
