// What needs the operator's eye, as the dashboard lists it: money received with no order (and,
// apart and quieter, forwarded messages that were no payment), notifications failing or given
// up, late payments (core/browse/late.ts) and creation failures of the last days
// (store.browse.attention). A notification counts as failing after as many failed attempts as
// the alert for it waits for (alert_notify_failures), so the list and the alert agree.
import type { Gateway } from "../gateway.ts";
import type { FailureGroup } from "../store.ts";
import type { AttentionRows } from "./store.ts";

/** How far back the dashboard looks: older rows are in the orders and reports pages. */
export const ATTENTION_DAYS = 7;
/** Rows shown per list. */
export const ATTENTION_ROWS = 10;
/** Failed attempts after which a pending notification is listed when its alert is off (0). */
export const DEFAULT_FAILING_ATTEMPTS = 5;

export interface Attention {
  since: number;
  /** Failed attempts after which a pending notification is listed. */
  minAttempts: number;
  rows: AttentionRows;
  /** Per list: more rows than shown. */
  more: Record<keyof AttentionRows, boolean>;
  /**
   * Failing notifications as the dashboard shows them: one row per merchant and error, with the
   * count and the last attempt (store.failureGroups, as a merchant's delivery health reads them):
   * 28 failures of one merchant down are one row, not ten identical ones.
   */
  failureGroups: FailureGroup[];
  /** More groups than shown. */
  moreFailureGroups: boolean;
}

export async function attentionList(gw: Gateway, o: { now?: number; limit?: number } = {}): Promise<Attention> {
  const now = o.now ?? gw.clock.now();
  const limit = o.limit ?? ATTENTION_ROWS;
  const setting = (await gw.settings()).int("alert_notify_failures");
  const minAttempts = setting > 0 ? setting : DEFAULT_FAILING_ATTEMPTS;
  const since = now - ATTENTION_DAYS * 86400;
  // One row more than shown says whether a list goes on.
  const all = await gw.store.browse.attention({ since, limit: limit + 1, minAttempts });
  const cut = <T>(xs: T[]) => xs.slice(0, limit);
  const groups = await gw.store.failureGroups({ sinceMs: since * 1000, limit: limit + 1, minAttempts });
  return {
    since,
    minAttempts,
    failureGroups: cut(groups),
    moreFailureGroups: groups.length > limit,
    rows: {
      unmatchedReports: cut(all.unmatchedReports),
      notPayments: cut(all.notPayments),
      failingNotifications: cut(all.failingNotifications),
      latePayments: cut(all.latePayments),
      creationFailures: cut(all.creationFailures),
    },
    more: {
      unmatchedReports: all.unmatchedReports.length > limit,
      notPayments: all.notPayments.length > limit,
      failingNotifications: all.failingNotifications.length > limit,
      latePayments: all.latePayments.length > limit,
      creationFailures: all.creationFailures.length > limit,
    },
  };
}
