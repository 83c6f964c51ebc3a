// CSV of every order under a filter, as a stream: each pull reads one keyset page (the list's own
// query, store.browse.searchOrders), so a million rows never sit in memory and the first bytes (the
// header) leave before the first page is read. Amounts in yuan, times in the operator's zone. A
// cell a spreadsheet would run as a formula (= + - @ at its start) gets a leading apostrophe.
import { formatYuan } from "../money.ts";
import { effectiveStatus, STATUS_NAMES } from "../order-state.ts";
import { formatLocal } from "../time.ts";
import type { Order } from "../types.ts";
import type { OrderFilter } from "./order-query.ts";
import type { BrowseStore } from "./store.ts";

export const EXPORT_PAGE = 1000;
const COLUMNS = ["trade_no", "out_trade_no", "pid", "family", "pay_type", "name", "amount_yuan", "trade_amount_yuan", "status", "created_at", "paid_at", "clientip", "account_id"];

export function csvCell(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function line(o: Order, now: number, zone: string): string {
  const time = (s: number | null) => (s ? formatLocal(s * 1000, zone).slice(0, 19) : "");
  return [
    o.tradeNo, o.outTradeNo, String(o.pid), o.family, o.payType, o.name, formatYuan(o.amount), o.tradeAmount === null ? "" : formatYuan(o.tradeAmount),
    STATUS_NAMES[effectiveStatus(o, now)], time(o.createdAt), time(o.paidAt), o.clientip, o.accountId === null ? "" : String(o.accountId),
  ].map(csvCell).join(",");
}

export function ordersCsv(browse: BrowseStore, filter: Omit<OrderFilter, "after">, o: { now: number; zone: string; pageSize?: number }): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const size = o.pageSize ?? EXPORT_PAGE;
  let after: { createdAt: number; tradeNo: string } | undefined;
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(c) {
      // The BOM lets spreadsheet programs read the Chinese names as UTF-8.
      c.enqueue(enc.encode(`\uFEFF${COLUMNS.join(",")}\r\n`));
    },
    async pull(c) {
      if (done) return c.close();
      const rows = await browse.searchOrders({ ...filter, after, limit: size, now: o.now });
      if (rows.length > 0) c.enqueue(enc.encode(rows.map((r) => `${line(r, o.now, o.zone)}\r\n`).join("")));
      const last = rows.at(-1);
      if (rows.length < size || !last) {
        done = true;
        return c.close();
      }
      after = { createdAt: last.createdAt, tradeNo: last.tradeNo };
    },
  }, { highWaterMark: 1 });
}
