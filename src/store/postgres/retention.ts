// One batch of the retention prune (core/retention.ts decides the cut-offs and loops), as on SQLite.
// Rows another instance's prune holds are skipped rather than waited for.
import type { SQL } from "bun";
import type { PruneBatch, PruneCounts } from "../../core/store.ts";
import { unit } from "./tx.ts";

export function pruneBatch(sql: SQL, b: PruneBatch): Promise<PruneCounts> {
  return unit(sql, async (tx): Promise<PruneCounts> => {
    // Heartbeats, refusals and duplicates by outcome; unmatched with no amount read at the same cut,
    // unmatched money at its own; a report that paid an order (matched, assigned) never.
    const reports = await tx`
      DELETE FROM reports WHERE id IN (
        SELECT id FROM reports
        WHERE (outcome IN ('accepted', 'rejected', 'duplicate') OR (outcome = 'unmatched' AND amount IS NULL)) AND created_at < ${b.reportsBefore}
          OR outcome = 'unmatched' AND amount IS NOT NULL AND created_at < ${b.unmatchedBefore ?? 0}
        LIMIT ${b.batch} FOR UPDATE SKIP LOCKED)`;
    const refusals = await tx`DELETE FROM report_refusals WHERE last_seen < ${b.reportsBefore}`;
    const bounds = await tx`DELETE FROM report_bounds WHERE day < ${b.reportsBefore}`;
    // A notification still being retried keeps its whole history: the operator is looking at it.
    const attempts = await tx`
      DELETE FROM notification_attempts WHERE id IN (
        SELECT a.id FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id
        WHERE a.attempted_at < ${b.attemptsBeforeMs} AND n.status <> 'pending' LIMIT ${b.batch} FOR UPDATE OF a SKIP LOCKED)`;
    return { reports: reports.count, attempts: attempts.count, counters: refusals.count + bounds.count };
  });
}
