// Income over a range, grouped for a table: `xpay stats` prints it and the console dashboard
// (dashboard.ts) draws it, from the one store query (StatsStore.income).
//
// A paid order counts on the day (hour) it was PAID: income is money received, and the daily
// limits of accounts count the same way. The created count counts an order on the day it was
// CREATED. So the paid/created ratio of one day compares the day's payments with the day's new
// orders; an order created at 23:58 and paid at 00:03 is "created" on one day and "paid" on the
// next, and a single hour's ratio can exceed 100 %. Over a week or a month the two sides agree.
import type { Gateway } from "../gateway.ts";
import { DEFAULT_TIME_ZONE, timeZoneProblem } from "../time.ts";
import { buckets } from "./calendar.ts";
import type { AccountIncome, IncomeCounts } from "./store.ts";

export type StatsBy = "day" | "hour" | "pay-type" | "account" | "merchant";
export const STATS_BY: StatsBy[] = ["day", "hour", "pay-type", "account", "merchant"];

export interface IncomeFigures {
  paidCount: number;
  /** Cents. */
  paidAmount: number;
  created: number;
  /** paidCount / created; null when nothing was created. */
  ratio: number | null;
}

export interface IncomeGroup extends IncomeFigures {
  /** The local day ("2026-11-23"), hour ("2026-11-23 14:00"), pay type, account id or pid. */
  key: string;
  /** What a person reads: the key, or "#3 Alipay A" for an account, "1001 Shop" for a merchant. */
  label: string;
}

export interface IncomeReport {
  from: number;
  to: number;
  zone: string;
  by: StatsBy;
  pid?: number;
  rows: IncomeGroup[];
  total: IncomeFigures;
}

export const ratioOf = (paid: number, created: number): number | null => (created > 0 ? paid / created : null);

export function figures(rows: IncomeCounts[]): IncomeFigures {
  let paidCount = 0;
  let paidAmount = 0;
  let created = 0;
  for (const r of rows) {
    paidCount += r.paidCount;
    paidAmount += r.paidAmount;
    created += r.created;
  }
  return { paidCount, paidAmount, created, ratio: ratioOf(paidCount, created) };
}

/** The operator's zone: the `timezone` setting, or the default when it is unusable. */
export async function statsZone(gw: Gateway): Promise<string> {
  const zone = (await gw.settings()).str("timezone");
  return timeZoneProblem(zone) === null ? zone : DEFAULT_TIME_ZONE;
}

/** Every local day or hour of [from, to), empty ones included, oldest first. */
export async function byTime(gw: Gateway, q: { from: number; to: number; unit: "day" | "hour"; pid?: number; zone: string }): Promise<IncomeGroup[]> {
  const bs = buckets(q.from, q.to, q.unit, q.zone);
  if (bs.length === 0) return [];
  const counts = await gw.store.stats.incomeByRange({ edges: [...bs.map((b) => b.from), bs.at(-1)!.to], pid: q.pid });
  return bs.map((b, i) => ({ key: b.label, label: b.label, ...figures([counts[i]!]) }));
}

export type Breakdown = "pay-type" | "account" | "merchant";

/** Names for the account and merchant keys; what the store keeps of them now. */
export async function labeller(gw: Gateway): Promise<(by: Breakdown, key: string) => string> {
  const accounts = new Map((await gw.store.listChannels()).map((a) => [String(a.id), `#${a.id} ${a.name} (${a.payType})`]));
  const merchants = new Map((await gw.store.listMerchants()).map((m) => [String(m.pid), `${m.pid} ${m.name}`]));
  return (by, key) => {
    if (key === "") return "(none)";
    if (by === "account") return accounts.get(key) ?? `#${key} (removed)`;
    if (by === "merchant") return merchants.get(key) ?? key;
    return key;
  };
}

const keyOf = (r: AccountIncome, by: Breakdown): string =>
  by === "pay-type" ? r.payType : by === "account" ? (r.accountId === null ? "" : String(r.accountId)) : String(r.pid);

/** Per-account rows summed per pay type, account or merchant, largest income first. */
export function breakdown(rows: AccountIncome[], by: Breakdown, label: (by: Breakdown, key: string) => string): IncomeGroup[] {
  const groups = new Map<string, AccountIncome[]>();
  for (const r of rows) {
    const key = keyOf(r, by);
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  return [...groups]
    .map(([key, rs]) => ({ key, label: label(by, key), ...figures(rs) }))
    .sort((a, b) => b.paidAmount - a.paidAmount || b.created - a.created || a.key.localeCompare(b.key));
}

/** Income of [from, to) (unix seconds) grouped `by`, in the operator's time zone. */
export async function incomeStats(gw: Gateway, q: { from: number; to: number; by: StatsBy; pid?: number; zone?: string }): Promise<IncomeReport> {
  const zone = q.zone ?? (await statsZone(gw));
  const groups =
    q.by === "day" || q.by === "hour"
      ? await byTime(gw, { from: q.from, to: q.to, unit: q.by, pid: q.pid, zone })
      : breakdown(await gw.store.stats.incomeByAccount({ from: q.from, to: q.to, pid: q.pid }), q.by, await labeller(gw));
  return { from: q.from, to: q.to, zone, by: q.by, ...(q.pid === undefined ? {} : { pid: q.pid }), rows: groups, total: figures(groups) };
}
