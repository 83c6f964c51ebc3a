// Every figure of the console dashboard in one call, so its page only renders: today, yesterday,
// the last 7 and 30 days (each ending now, today included), today's hours, the 30 days one by
// one, and where the money came from (pay type, account, merchant) today and over 30 days.
// Four store reads: the 30 days one by one (the four periods are sums of them), today's hours, and
// the per-account rows of today and of the 30 days.
import type { Gateway } from "../gateway.ts";
import { lastDays } from "./calendar.ts";
import { breakdown, byTime, type IncomeFigures, type IncomeGroup, figures, labeller, statsZone } from "./income.ts";
import type { AccountIncome } from "./store.ts";

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

/** The last `n` of the 30 days, as one period. */
function period(days: IncomeGroup[], n: number, from: number, to: number, skipLast = 0): Period {
  return { from, to, ...figures(days.slice(days.length - n - skipLast, days.length - skipLast)) };
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
  const days30 = await byTime(gw, { from: start30, to, unit: "day", pid, zone });
  const hoursToday = await byTime(gw, { from: today, to, unit: "hour", pid, zone });
  const label = await labeller(gw);
  const split = (rows: AccountIncome[]): Breakdowns => ({
    payType: breakdown(rows, "pay-type", label), account: breakdown(rows, "account", label), merchant: breakdown(rows, "merchant", label),
  });
  return {
    now, zone, ...(pid === undefined ? {} : { pid }),
    periods: {
      today: period(days30, 1, today, to),
      yesterday: period(days30, 1, days[28]!, today, 1),
      last7: period(days30, 7, days[23]!, to),
      last30: period(days30, 30, start30, to),
    },
    hoursToday,
    days30,
    today: split(await gw.store.stats.incomeByAccount({ from: today, to, pid })),
    last30: split(await gw.store.stats.incomeByAccount({ from: start30, to, pid })),
  };
}
