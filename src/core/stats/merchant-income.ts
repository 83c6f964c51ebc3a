// Each merchant's income today, over the last 7 and the last 30 local days (the merchants list),
// from the dashboard's own store unit (incomeByAccount) so the two pages cannot disagree. Income is
// money received: paid orders counted on the day they were paid, their payable amounts summed.
import type { Gateway } from "../gateway.ts";
import { lastDays } from "./calendar.ts";
import { statsZone } from "./income.ts";

export interface Earned {
  count: number;
  /** Cents. */
  amount: number;
}

export interface MerchantIncome {
  today: Earned;
  last7: Earned;
  last30: Earned;
}

const none = (): MerchantIncome => ({ today: { count: 0, amount: 0 }, last7: { count: 0, amount: 0 }, last30: { count: 0, amount: 0 } });

/** By pid; a merchant without a paid order in 30 days has zeros. `pid` narrows the reads to one merchant. */
export async function merchantIncome(gw: Gateway, o: { pid?: number; now?: number } = {}): Promise<Map<number, MerchantIncome>> {
  const now = o.now ?? gw.clock.now();
  const days = lastDays(now, 30, await statsZone(gw));
  const to = now + 1; // the current second counts
  const out = new Map<number, MerchantIncome>();
  const ranges = [["today", days[29]!], ["last7", days[23]!], ["last30", days[0]!]] as const;
  for (const [key, from] of ranges) {
    for (const r of await gw.store.stats.incomeByAccount({ from, to, pid: o.pid })) {
      const m = out.get(r.pid) ?? none();
      m[key].count += r.paidCount;
      m[key].amount += r.paidAmount;
      out.set(r.pid, m);
    }
  }
  return out;
}

export function incomeOf(all: Map<number, MerchantIncome>, pid: number): MerchantIncome {
  return all.get(pid) ?? none();
}
