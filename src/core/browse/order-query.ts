// The operator's order filter as typed (console query string, CLI options) -> an OrderQuery, with
// one problem per field. Strict: a value that is not what its field takes is refused with why,
// never dropped, so a filtered page can never silently show everything. The console words the
// problem codes itself; the CLI prints the English message after the option's name.
import { parseYuan } from "../money.ts";
import { PAY_TYPE_PATTERN } from "../order-input.ts";
import { parseStatusWord, STATUS_WORDS } from "../order-state.ts";
import type { Order } from "../types.ts";
import { parseDateRange } from "./date-range.ts";
import type { OrderCursor, OrderQuery } from "./store.ts";

export const ORDER_FILTER_FIELDS = ["status", "pid", "pay_type", "account", "from", "to", "q", "ip", "amount_min", "amount_max", "paid_from", "paid_to", "after"] as const;
export type OrderFilterField = (typeof ORDER_FILTER_FIELDS)[number];
/** The filter as typed; an empty or missing value is "any". */
export type OrderFilterInput = Partial<Record<OrderFilterField, string | null | undefined>>;

export type OrderFilterCode =
  | "bad_status"
  | "bad_pid"
  | "unknown_pid"
  | "bad_pay_type"
  | "bad_account"
  | "unknown_account"
  | "bad_date"
  | "range_reversed"
  | "bad_range"
  | "bad_search"
  | "bad_ip"
  | "bad_amount"
  | "amount_reversed"
  | "bad_cursor";

export interface OrderFilterProblem {
  code: OrderFilterCode;
  /** English, without the field's name: the CLI prints `--status must be one of: ...`. */
  message: string;
}

export type OrderFilter = Omit<OrderQuery, "limit" | "now">;

export interface ParsedOrderFilter {
  filter: OrderFilter;
  /** The values kept, trimmed (for the form and the paging links). */
  values: Partial<Record<OrderFilterField, string>>;
  problems: Partial<Record<OrderFilterField, OrderFilterProblem>>;
}

/** Merchants and accounts that exist: the console refuses others (its menus offer only these). */
export interface KnownIds {
  pids?: readonly number[];
  accountIds?: readonly number[];
}

export const SEARCH_MAX = 64;
const STATUS_HELP = `${Object.keys(STATUS_WORDS).join(", ")} (or 1-5)`;

/**
 * What one search box looks for: 20 digits is a platform number (and, since merchants number their
 * orders too, also a merchant number), a yuan amount ("9.98", "¥9.98", "9.98元") the payable
 * amount (and the merchant number it could also be), anything else a merchant number. Null when
 * the text could be none of them.
 */
export function classifySearch(text: string): OrderQuery["search"] | null {
  const s = text.trim();
  if (s === "" || s.length > SEARCH_MAX) return null;
  const ascii = /^[\x21-\x7e]+$/.test(s);
  const amount = parseYuan(s.replace(/^[¥￥]\s*/, "").replace(/\s*元$/, ""));
  if (/^\d{20}$/.test(s)) return { tradeNo: s, outTradeNo: s };
  if (amount !== null) return ascii ? { tradeAmount: amount, outTradeNo: s } : { tradeAmount: amount };
  return ascii ? { outTradeNo: s } : null;
}

/** `1795415400.20261123143000123456`: the last row of a page, where the next one starts. */
export function encodeCursor(o: Pick<Order, "createdAt" | "tradeNo">): string {
  return `${o.createdAt}.${o.tradeNo}`;
}

export function parseCursor(s: string): OrderCursor | null {
  const m = /^(\d{1,12})\.([0-9A-Za-z_-]{1,64})$/.exec(s);
  return m ? { createdAt: Number(m[1]), tradeNo: m[2]! } : null;
}

const problem = (code: OrderFilterCode, message: string): OrderFilterProblem => ({ code, message });

export function parseOrderFilter(input: OrderFilterInput, zone: string, known: KnownIds = {}): ParsedOrderFilter {
  const values: ParsedOrderFilter["values"] = {};
  for (const f of ORDER_FILTER_FIELDS) {
    const v = (input[f] ?? "").trim();
    if (v !== "") values[f] = v.slice(0, 200);
  }
  const filter: OrderFilter = {};
  const problems: ParsedOrderFilter["problems"] = {};
  if (values.status !== undefined) {
    const s = parseStatusWord(values.status);
    if (s === null) problems.status = problem("bad_status", `must be one of: ${STATUS_HELP}`);
    else filter.status = s;
  }
  if (values.pid !== undefined) {
    const pid = /^\d{1,10}$/.test(values.pid) ? Number(values.pid) : null;
    if (pid === null) problems.pid = problem("bad_pid", "must be a merchant number (pid)");
    else if (known.pids && !known.pids.includes(pid)) problems.pid = problem("unknown_pid", `no merchant ${pid}`);
    else filter.pid = pid;
  }
  if (values.pay_type !== undefined) {
    if (!PAY_TYPE_PATTERN.test(values.pay_type)) problems.pay_type = problem("bad_pay_type", "must be a pay type such as alipay, wxpay or qqpay");
    else filter.payType = values.pay_type;
  }
  if (values.account !== undefined) {
    const id = /^\d{1,12}$/.test(values.account) ? Number(values.account) : null;
    if (id === null) problems.account = problem("bad_account", "must be an account id (a whole number)");
    else if (known.accountIds && !known.accountIds.includes(id)) problems.account = problem("unknown_account", `no account ${id}`);
    else filter.accountId = id;
  }
  const created = parseDateRange(values.from, values.to, zone);
  Object.assign(problems, created.problems);
  if (created.from !== undefined) filter.from = created.from;
  if (created.to !== undefined) filter.to = created.to;
  if (values.q !== undefined) {
    const search = classifySearch(values.q);
    if (!search) problems.q = problem("bad_search", `must be a trade_no, an amount such as 9.98, or an out_trade_no (1-${SEARCH_MAX} printable ASCII characters)`);
    else filter.search = search;
  }
  if (values.ip !== undefined) {
    // As the order recorded it (the merchant's clientip), so any address spelling a merchant sends.
    if (!/^[0-9A-Za-z.:_%-]{1,64}$/.test(values.ip)) problems.ip = problem("bad_ip", "must be an IP address such as 203.0.113.7");
    else filter.clientIp = values.ip;
  }
  for (const [f, key] of [["amount_min", "amountMin"], ["amount_max", "amountMax"]] as const) {
    if (values[f] === undefined) continue;
    const cents = parseYuan(values[f]!.replace(/^[¥￥]\s*/, "").replace(/\s*元$/, ""));
    if (cents === null) problems[f] = problem("bad_amount", "must be an amount in yuan such as 9.98");
    else filter[key] = cents;
  }
  if (filter.amountMin !== undefined && filter.amountMax !== undefined && filter.amountMax < filter.amountMin) {
    problems.amount_max = problem("amount_reversed", "must not be below the smallest amount");
  }
  const paid = parseDateRange(values.paid_from, values.paid_to, zone);
  if (paid.problems.from) problems.paid_from = paid.problems.from;
  if (paid.problems.to) problems.paid_to = paid.problems.to;
  if (paid.from !== undefined) filter.paidFrom = paid.from;
  if (paid.to !== undefined) filter.paidTo = paid.to;
  if (values.after !== undefined) {
    const c = parseCursor(values.after);
    if (!c) problems.after = problem("bad_cursor", "is not a page position this list wrote");
    else filter.after = c;
  }
  return { filter, values, problems };
}

/** The query string of a filtered list (without the page position unless `after` is given). */
export function filterQueryString(values: ParsedOrderFilter["values"], after?: string): string {
  const q = new URLSearchParams();
  for (const f of ORDER_FILTER_FIELDS) if (f !== "after" && values[f] !== undefined) q.set(f, values[f]!);
  if (after !== undefined) q.set("after", after);
  return q.toString();
}
