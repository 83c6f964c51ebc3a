// One batch of the retention prune (core/retention.ts decides the cut-offs and loops). Each
// delete walks a time index from its oldest end, so a batch costs the rows it removes, not the
// size of the table. A report that paid an order (matched, the operator's assignments too) is never
// selected; money that paid no order (unmatched with an amount) only after its own, longer cut.
import type { Database } from "bun:sqlite";
import type { PruneBatch, PruneCounts } from "../../core/store.ts";

export function pruneBatch(db: Database, b: PruneBatch): PruneCounts {
  return db.transaction((): PruneCounts => {
    // Heartbeats, refusals and duplicates by outcome; unmatched only when no amount was read
    // (a message that was not a payment). The (outcome, created_at) index serves each range.
    const reports = db
      .query(
        `DELETE FROM reports WHERE id IN (
           SELECT id FROM reports WHERE outcome IN ('accepted', 'rejected', 'duplicate') AND created_at < $before
           UNION ALL
           SELECT id FROM reports WHERE outcome = 'unmatched' AND created_at < $before AND amount IS NULL
           UNION ALL
           SELECT id FROM reports WHERE outcome = 'unmatched' AND created_at < $unmatched AND amount IS NOT NULL
           LIMIT $batch)`,
      )
      .run({ before: b.reportsBefore, unmatched: b.unmatchedBefore ?? 0, batch: b.batch }).changes;
    const counters =
      db.query("DELETE FROM report_refusals WHERE last_seen < $before").run({ before: b.reportsBefore }).changes +
      db.query("DELETE FROM report_bounds WHERE day < $before").run({ before: b.reportsBefore }).changes;
    // A notification still being retried keeps its whole history: the operator is looking at it.
    const attempts = db
      .query(
        `DELETE FROM notification_attempts WHERE id IN (
           SELECT a.id FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id
           WHERE a.attempted_at < $before AND n.status <> 'pending' LIMIT $batch)`,
      )
      .run({ before: b.attemptsBeforeMs, batch: b.batch }).changes;
    return { reports, attempts, counters };
  }).immediate();
}
