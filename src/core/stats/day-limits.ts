// The accounts close to their daily limit (day_amount), for the dashboard: before the allocation
// rule starts passing them over. The figures are accountsToday's (core/accounts-today.ts, the
// accounts page's): paid on the limit's own day (China time, as allocation.ts counts it), not the
// operator's `timezone` day, so an account shown at 95 % here is 95 % for the rule.
import { type AccountToday, accountsToday, NEAR_LIMIT } from "../accounts-today.ts";
import type { Gateway } from "../gateway.ts";

/** Enabled accounts at or above `share` (default NEAR_LIMIT, 80 %) of their daily limit, the fullest first. */
export async function accountsNearDayLimit(gw: Gateway, o: { share?: number } = {}): Promise<AccountToday[]> {
  const share = o.share ?? NEAR_LIMIT;
  return (await accountsToday(gw)).rows
    .filter((a) => a.account.enabled && a.dayUsed !== null && a.dayUsed >= share)
    .sort((a, b) => b.dayUsed! - a.dayUsed! || a.account.id - b.account.id);
}
