// Every figure of the console dashboard in one call, so its page only renders: today, yesterday,
// the last 7 and 30 days (each ending now, today included), today's hours, the 30 days one by
// one, and where the money came from (pay type, account, merchant) today and over 30 days.
// Three store reads: the 30 days by quarter hour (periods, hours, days all fold from it) and the
// detail rows of today and of the 30 days.
import type { Gateway } from "../gateway.ts";
import { lastDays, QUARTER } from "./calendar.ts";
import { breakdown, type IncomeFigures, type IncomeGroup, figures, foldQuarters, labeller, statsZone } from "./income.ts";
import type { IncomeRow } from "./store.ts";

export interface Period extends IncomeFigures {
  /** Unix seconds, [from, to). */
  from: number;
  to: number;
}

export interface Breakdowns {
  payType: IncomeGroup[];
  account: IncomeGroup[];
  merchant: IncomeGroup[];
}

export interface DashboardStats {
  now: number;
  zone: string;
  pid?: number;
  periods: { today: Period; yesterday: Period; last7: Period; last30: Period };
  /** Today's local hours up to the current one. */
  hoursToday: IncomeGroup[];
  /** The 30 local days ending today, oldest first; days without orders included. */
  days30: IncomeGroup[];
  today: Breakdowns;
  last30: Breakdowns;
}

function period(rows: IncomeRow[], from: number, to: number): Period {
  const first = Math.floor(from / QUARTER);
  const end = Math.ceil(to / QUARTER);
  return { from, to, ...figures(rows.filter((r) => Number(r.key) >= first && Number(r.key) < end)) };
}

/** The dashboard's figures for every merchant, or for `pid` only; `now` in unix seconds (default the gateway's clock). */
export async function dashboardStats(gw: Gateway, o: { pid?: number; now?: number } = {}): Promise<DashboardStats> {
  const now = o.now ?? gw.clock.now();
  const zone = await statsZone(gw);
  const days = lastDays(now, 30, zone);
  const start30 = days[0]!;
  const today = days[29]!;
  const to = now + 1; // the current second counts
  const pid = o.pid;
  const quarters = await gw.store.stats.income({ from: start30, to, pid, by: "quarter" });
  const detailToday = await gw.store.stats.income({ from: today, to, pid, by: "detail" });
  const detail30 = await gw.store.stats.income({ from: start30, to, pid, by: "detail" });
  const label = await labeller(gw);
  const split = (rows: IncomeRow[]): Breakdowns => ({
    payType: breakdown(rows, "pay-type", label), account: breakdown(rows, "account", label), merchant: breakdown(rows, "merchant", label),
  });
  return {
    now, zone, ...(pid === undefined ? {} : { pid }),
    periods: {
      today: period(quarters, today, to),
      yesterday: period(quarters, days[28]!, today),
      last7: period(quarters, days[23]!, to),
      last30: period(quarters, start30, to),
    },
    hoursToday: foldQuarters(quarters, today, to, "hour", zone),
    days30: foldQuarters(quarters, start30, to, "day", zone),
    today: split(detailToday),
    last30: split(detail30),
  };
}
