/** @jsxImportSource @kitajs/html */
// GET /admin/orders: orders newest first under a filter (status, merchant, pay type, account,
// creation and paid dates in the operator's zone (orders-filter.tsx), one search box), read by store.browse.searchOrders with
// keyset paging: "next page" carries the last row's (created_at, trade_no), "newest" drops it. No
// OFFSET and no total count, so page 500 of a million orders costs what page 1 costs. The filter is
// parsed by core/browse/order-query.ts (the CLI's `order list` too); a bad value is a 422 with its
// message under its field, and no rows. Above the table the filter's totals (loaded after the page),
// beside each row its notification, below it the bulk actions (orders-bulk.tsx).
import { encodeCursor, filterQueryString } from "../../core/browse/order-query.ts";
import type { Merchant, Order } from "../../core/types.ts";
import { attr, Notice, PageHead, Pager, Time } from "../components.tsx";
import type { AdminContext } from "../context.ts";
import type { Translate } from "../i18n/index.ts";
import { page } from "../render.tsx";
import type { NotificationState } from "../../core/browse/store.ts";
import { payTypeName, StatusBadge, yuan } from "./order-bits.tsx";
import { FilterForm, listFilter } from "./orders-filter.tsx";
import { BulkForm, type BulkState, doneNotice, NotifyCell, TotalsSlot } from "./orders-bulk.tsx";

export const ORDERS_PAGE_SIZE = 50;

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
        <FilterForm values={parsed.values} errors={errors} merchants={merchants} accounts={accounts} t={t} tz={ctx.tz} now={now} />
        <p class="filter-note" safe>{t("filters.zone", { zone: ctx.tz })}</p>
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
