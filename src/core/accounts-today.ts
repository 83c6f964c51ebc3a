// The receiving accounts as the console lists them: each with what it received today against its
// daily limit and whether its monitoring client is online. "Today" is the day the daily limit
// counts (the China-time day, like allocation.ts and trade_no), and the figure is incomeStats'
// per-account paid sum over that day (the numbers `xpay stats --by account` shows for it); online
// is the rule allocation applies under require_online_client: seen within heartbeat_timeout.
import type { Gateway } from "./gateway.ts";
import { startOfDay } from "./ids.ts";
import { incomeStats } from "./stats/income.ts";
import type { ChannelAccount } from "./types.ts";

export interface AccountToday {
  account: ChannelAccount;
  /** trade_amount paid on the account since the start of the limit's day, cents. */
  paidToday: number;
  paidCountToday: number;
  /** paidToday / dayAmount (0..), null without a daily limit. */
  dayUsed: number | null;
  /** Its monitoring client reported within heartbeat_timeout seconds. */
  online: boolean;
}

export interface AccountsToday {
  /** Unix seconds: the start of the day the daily limits count. */
  dayStart: number;
  heartbeatTimeout: number;
  rows: AccountToday[];
}

/** Share of the daily limit from which an account is "near" it (the list marks it). */
export const NEAR_LIMIT = 0.8;

export async function accountsToday(gw: Gateway, o: { pid?: number } = {}): Promise<AccountsToday> {
  const now = gw.clock.now();
  const dayStart = startOfDay(now);
  const heartbeatTimeout = (await gw.settings()).int("heartbeat_timeout");
  const accounts = await gw.store.listChannels(o.pid === undefined ? {} : { pid: o.pid });
  const income = await incomeStats(gw, { from: dayStart, to: now + 1, by: "account" });
  const byId = new Map(income.rows.map((r) => [r.key, r]));
  const rows = accounts.map((account) => {
    const paid = byId.get(String(account.id));
    const paidToday = paid?.paidAmount ?? 0;
    return {
      account, paidToday, paidCountToday: paid?.paidCount ?? 0,
      dayUsed: account.dayAmount > 0 ? paidToday / account.dayAmount : null,
      online: account.lastSeenAt > 0 && now - account.lastSeenAt <= heartbeatTimeout,
    };
  });
  return { dayStart, heartbeatTimeout, rows };
}
