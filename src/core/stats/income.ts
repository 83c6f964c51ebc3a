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
import { quarterLabels } from "./calendar.ts";
import type { IncomeKey, IncomeRow } from "./store.ts";

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

export function figures(rows: Pick<IncomeRow, "paidCount" | "paidAmount" | "created">[]): IncomeFigures {
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

/** Quarter-hour rows folded into every local day or hour of [from, to), empty ones included. */
export function foldQuarters(rows: IncomeRow[], from: number, to: number, unit: "day" | "hour", zone: string): IncomeGroup[] {
  const labels = quarterLabels(from, to, unit, zone);
  const groups = new Map<string, IncomeRow[]>();
  for (const label of labels.values()) if (!groups.has(label)) groups.set(label, []);
  for (const r of rows) {
    const label = labels.get(Number(r.key));
    if (label !== undefined) groups.get(label)!.push(r);
  }
  return [...groups].map(([key, rs]) => ({ key, label: key, ...figures(rs) }));
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

/** `detail` rows ("pay_type|account|pid") summed per pay type, account or merchant, largest income first. */
export function breakdown(rows: IncomeRow[], by: Breakdown, label: (by: Breakdown, key: string) => string): IncomeGroup[] {
  const part = by === "pay-type" ? 0 : by === "account" ? 1 : 2;
  const groups = new Map<string, IncomeRow[]>();
  for (const r of rows) {
    const key = r.key.split("|")[part] ?? "";
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  return [...groups]
    .map(([key, rs]) => ({ key, label: label(by, key), ...figures(rs) }))
    .sort((a, b) => b.paidAmount - a.paidAmount || b.created - a.created || a.key.localeCompare(b.key));
}

const STORE_KEY: Record<StatsBy, IncomeKey> = { day: "quarter", hour: "quarter", "pay-type": "detail", account: "detail", merchant: "detail" };

/** Income of [from, to) (unix seconds) grouped `by`, in the operator's time zone. */
export async function incomeStats(gw: Gateway, q: { from: number; to: number; by: StatsBy; pid?: number; zone?: string }): Promise<IncomeReport> {
  const zone = q.zone ?? (await statsZone(gw));
  const rows = await gw.store.stats.income({ from: q.from, to: q.to, pid: q.pid, by: STORE_KEY[q.by] });
  const groups =
    q.by === "day" || q.by === "hour" ? foldQuarters(rows, q.from, q.to, q.by, zone) : breakdown(rows, q.by, await labeller(gw));
  return { from: q.from, to: q.to, zone, by: q.by, ...(q.pid === undefined ? {} : { pid: q.pid }), rows: groups, total: figures(groups) };
}
