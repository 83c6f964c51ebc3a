// Retention: what the database may forget, and when. Three settings, in days (0 keeps everything):
//
// - report_retention_days: reports that recorded no payment (heartbeats, refused reports, duplicate
//   copies, forwarded messages that were not a payment), the refusal counters and the daily
//   counters of the unmatched bound (report-bounds.ts).
// - unmatched_retention_days (90): unmatched payment reports, money received that paid no order.
//   The operator needs them to assign the money by hand (a payer who paid 9.99 for 10.00 calls a
//   week later), so they stay longer; but a signed client can make any number of them (one per
//   pay_time), so they cannot stay forever.
// - attempt_retention_days: the attempt log (status, response excerpt) of notifications that are
//   delivered or failed. A notification still being retried keeps every attempt.
//
// Never deleted, whatever the settings: a report that paid an order (matched, and the unmatched
// ones the operator assigned to an order, which are matched from then on). They are the ledger of
// money received and stay as long as their orders, which are never deleted; they grow with real
// payments only, and they carry the dedupe keys: a phone re-sending a payment it already reported,
// even days later with a fresh timestamp and the same pay_time, finds its key and reads "duplicate".
// An unmatched report's key goes with it after its retention: a phone re-sending a payment three
// months old is read again as a new report (no phone retries that long; the match window keeps it
// from paying an order that ended, and only an order pending right now with that very amount
// could take it). Matching reads orders only, so nothing else that is deleted is ever read again.
import type { Gateway } from "./gateway.ts";
import type { PruneCounts } from "./store.ts";

const DAY = 86_400;
/** Rows per transaction: short write locks, so requests interleave with a large first prune. */
export const PRUNE_BATCH = 2000;

export async function pruneHistory(gw: Gateway, o: { batch?: number } = {}): Promise<PruneCounts> {
  const s = await gw.settings();
  const now = gw.clock.now();
  const reportDays = s.int("report_retention_days");
  const unmatchedDays = s.int("unmatched_retention_days");
  const attemptDays = s.int("attempt_retention_days");
  const batch = o.batch ?? PRUNE_BATCH;
  const cut = {
    reportsBefore: reportDays > 0 ? now - reportDays * DAY : 0,
    unmatchedBefore: unmatchedDays > 0 ? now - unmatchedDays * DAY : 0,
    attemptsBeforeMs: attemptDays > 0 ? (now - attemptDays * DAY) * 1000 : 0,
    batch,
  };
  const total: PruneCounts = { reports: 0, attempts: 0, counters: 0 };
  for (;;) {
    const n = await gw.store.pruneHistory(cut);
    total.reports += n.reports;
    total.attempts += n.attempts;
    total.counters += n.counters;
    if (n.reports < batch && n.attempts < batch) return total;
    await new Promise((r) => setImmediate(r)); // let waiting requests write between batches
  }
}
