// The failed-login summary: the throttle's counters (login_failures, per user name, browser,
// minute and address) are what the operator reads, on the console's sessions page and with
// `xpay admin failed-logins`, and what the retention prune of serve keeps for
// login_failure_retention_days (0: forever). The throttle reads 15 minutes at most, so any
// retention keeps what it needs.
import type { Gateway } from "../gateway.ts";
import { PRUNE_BATCH } from "../retention.ts";
import type { LoginFailureSummary } from "./store.ts";

export const FAILURES_PAGE_MAX = 500;

/** Counters of the last `hours`, optionally of one user name (any case), newest minute first. */
export function recentLoginFailures(gw: Gateway, o: { hours: number; user?: string; limit?: number }): Promise<LoginFailureSummary[]> {
  return gw.store.admin.listLoginFailures({
    since: gw.clock.now() - o.hours * 3600,
    user: o.user?.slice(0, 64).toLowerCase(),
    limit: Math.max(1, Math.min(FAILURES_PAGE_MAX, o.limit ?? FAILURES_PAGE_MAX)),
  });
}

/** Deletes counters older than login_failure_retention_days, in short batches; returns how many. */
export async function pruneLoginFailures(gw: Gateway, o: { batch?: number } = {}): Promise<number> {
  const days = (await gw.settings()).int("login_failure_retention_days");
  if (days <= 0) return 0;
  const before = gw.clock.now() - days * 86_400;
  const batch = o.batch ?? PRUNE_BATCH;
  let total = 0;
  for (;;) {
    const n = await gw.store.admin.pruneLoginFailures(before, batch);
    total += n;
    if (n < batch) return total;
    await new Promise((r) => setImmediate(r)); // let waiting requests write between batches
  }
}
