// Retention: what the database may forget, and when. Two settings, in days (0 keeps everything):
//
// - report_retention_days: reports that recorded no payment (heartbeats, refused reports, duplicate
//   copies, forwarded messages that were not a payment) and the refusal counters.
// - attempt_retention_days: the attempt log (status, response excerpt) of notifications that are
//   delivered or failed. A notification still being retried keeps every attempt.
//
// Never deleted, whatever the settings: a report that recorded a payment (matched, or unmatched
// with an amount). They are the ledger of money received, they grow with real payments only (an
// outsider cannot make one without a secret), and they carry the dedupe keys: a phone re-sending
// a payment it already reported, even days later with a fresh timestamp and the same pay_time,
// must find its key and read "duplicate", never pay a newer order that took the same amount after
// the match window. So dedupe and matching never lose what they read, at any retention. What is
// deleted is never read by them: matching reads orders only; dedupe reads only matched and
// unmatched rows with a key, and the only ones pruned are messages that were not a payment, whose
// re-sent copy is read again as not a payment and stored again: no payment either way.
import type { Gateway } from "./gateway.ts";
import type { PruneCounts } from "./store.ts";

const DAY = 86_400;
/** Rows per transaction: short write locks, so requests interleave with a large first prune. */
export const PRUNE_BATCH = 2000;

export async function pruneHistory(gw: Gateway, o: { batch?: number } = {}): Promise<PruneCounts> {
  const s = await gw.settings();
  const now = gw.clock.now();
  const reportDays = s.int("report_retention_days");
  const attemptDays = s.int("attempt_retention_days");
  const batch = o.batch ?? PRUNE_BATCH;
  const cut = {
    reportsBefore: reportDays > 0 ? now - reportDays * DAY : 0,
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
