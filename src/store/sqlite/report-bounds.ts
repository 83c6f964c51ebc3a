// The daily bound of unmatched reports (core/report-bounds.ts), inside the transaction that would
// store one: the signer's counter row for the day takes the report when it holds fewer than `max`,
// else it only counts it. One upsert on a primary key, whatever the table's size.
import type { Database } from "bun:sqlite";
import type { ReportBound, ReportBoundCount } from "../../core/store.ts";

/** True when the report may be stored (and is counted as stored); false: counted as dropped. */
export function takeBound(db: Database, b: ReportBound, at: number): boolean {
  const took = db
    .query(
      `INSERT INTO report_bounds (key, day, stored, dropped, last_at) VALUES ($key, $day, 1, 0, $at)
       ON CONFLICT (key, day) DO UPDATE SET stored = stored + 1, last_at = excluded.last_at WHERE stored < $max
       RETURNING stored`,
    )
    .get({ key: b.key, day: b.day, at, max: b.max });
  if (took) return true;
  db.query("UPDATE report_bounds SET dropped = dropped + 1, last_at = $at WHERE key = $key AND day = $day").run({ key: b.key, day: b.day, at });
  return false;
}

export function listReportBounds(db: Database, f: { sinceDay: number; minStored?: number; limit: number }): ReportBoundCount[] {
  const rows = db
    .query("SELECT key, day, stored, dropped, last_at FROM report_bounds WHERE day >= $since AND stored >= $min ORDER BY day DESC, stored DESC, key LIMIT $limit")
    .all({ since: f.sinceDay, min: f.minStored ?? 0, limit: f.limit }) as { key: string; day: number; stored: number; dropped: number; last_at: number }[];
  return rows.map((r) => ({ key: r.key, day: r.day, stored: r.stored, dropped: r.dropped, lastAt: r.last_at }));
}
