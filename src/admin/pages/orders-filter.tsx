/** @jsxImportSource @kitajs/html */
// The orders list's filter form and its reading from the query string (the list, its totals, its
// export and its bulk actions all read the same): selects for what has a fixed set of values, date
// pickers and quick ranges for the creation dates (date-filter.tsx), pickers for the paid dates,
// text boxes for the rest. The values are checked by core/browse/order-query.ts, the CLI's too.
import { ORDER_FILTER_FIELDS, type OrderFilterCode, type OrderFilterField, parseOrderFilter } from "../../core/browse/order-query.ts";
import { PAY_TYPES } from "../../core/order-input.ts";
import { STATUS_WORDS } from "../../core/order-state.ts";
import type { ChannelAccount, Merchant } from "../../core/types.ts";
import { attr } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import { DATE_PROBLEM_TEXT, DateField, QuickRanges, rangedQuery } from "../date-filter.tsx";
import type { TextKey, Translate } from "../i18n/index.ts";
import { payTypeName } from "./order-bits.tsx";

const PROBLEM_TEXT: Record<OrderFilterCode, TextKey> = {
  ...DATE_PROBLEM_TEXT,
  bad_status: "orders.e_bad_status", bad_pid: "orders.e_bad_pid", unknown_pid: "orders.e_unknown_pid", bad_pay_type: "orders.e_bad_pay_type",
  bad_account: "orders.e_bad_account", unknown_account: "orders.e_unknown_account", bad_search: "orders.e_bad_search", bad_cursor: "orders.e_bad_cursor",
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

export function FilterForm(p: { values: Values; errors: Errors; merchants: Merchant[]; accounts: ChannelAccount[]; t: Translate; tz: string; now: number }) {
  const { t, values: v, errors: e } = p;
  // Known pay types first, then any other an account uses; a typed value stays selectable.
  const payTypes = [...new Set([...PAY_TYPES, ...p.accounts.map((a) => a.payType), ...(v.pay_type && !e.pay_type ? [v.pay_type] : [])])];
  // A quick range replaces the creation dates and keeps every other value (not the page position).
  const keep = ORDER_FILTER_FIELDS.filter((f) => f !== "from" && f !== "to" && f !== "after" && v[f] !== undefined).map((f): [string, string] => [f, v[f]!]);
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
      <DateField name="from" label={t("orders.f_from")} value={v.from} error={e.from} />
      <DateField name="to" label={t("orders.f_to")} value={v.to} error={e.to} />
      <QuickRanges path="/admin/orders" keep={keep} from={v.from} to={v.to} now={p.now} tz={p.tz} t={t} id="orders-ranges" />
      <DateField name="paid_from" label={t("olist.f_paid_from")} value={v.paid_from} error={e.paid_from} />
      <DateField name="paid_to" label={t("olist.f_paid_to")} value={v.paid_to} error={e.paid_to} />
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

/**
 * The list's filter from the query string (a quick range resolved into the creation dates),
 * checked against the merchants and accounts that exist.
 */
export async function listFilter(ctx: AdminContext) {
  const [merchants, accounts] = [await ctx.gw.store.listMerchants(), await ctx.gw.store.listChannels()];
  const { query, rangeError } = rangedQuery(ctx);
  const input = Object.fromEntries(ORDER_FILTER_FIELDS.map((f) => [f, query.get(f)]));
  const parsed = parseOrderFilter(input, ctx.tz, { pids: merchants.map((m) => m.pid), accountIds: accounts.map((a) => a.id) });
  const errors: Errors = Object.fromEntries(Object.entries(parsed.problems).map(([f, x]) => [f, ctx.t(PROBLEM_TEXT[x!.code])]));
  if (rangeError) errors.from = rangeError;
  return { merchants, accounts, parsed, errors, bad: Object.keys(errors).length > 0 };
}
