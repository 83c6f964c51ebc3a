// The daily bound of unmatched reports on PostgreSQL, as on SQLite (sqlite/report-bounds.ts): the
// upsert locks the signer's counter row, so reports of one signer at several instances take the
// last free places one at a time and never store more than `max`.
import type { SQL } from "bun";
import type { ReportBound, ReportBoundCount } from "../../core/store.ts";

/** True when the report may be stored (and is counted as stored); false: counted as dropped. */
export async function takeBound(tx: SQL, b: ReportBound, at: number): Promise<boolean> {
  const took = await tx`
    INSERT INTO report_bounds (key, day, stored, dropped, last_at) VALUES (${b.key}, ${b.day}, 1, 0, ${at})
    ON CONFLICT (key, day) DO UPDATE SET stored = report_bounds.stored + 1, last_at = excluded.last_at WHERE report_bounds.stored < ${b.max}
    RETURNING stored`;
  if (took.length > 0) return true;
  await tx`UPDATE report_bounds SET dropped = dropped + 1, last_at = ${at} WHERE key = ${b.key} AND day = ${b.day}`;
  return false;
}

export async function listReportBounds(sql: SQL, f: { sinceDay: number; minStored?: number; limit: number }): Promise<ReportBoundCount[]> {
  const rows = (await sql`
    SELECT key, day, stored, dropped, last_at FROM report_bounds WHERE day >= ${f.sinceDay} AND stored >= ${f.minStored ?? 0}
    ORDER BY day DESC, stored DESC, key LIMIT ${f.limit}`) as Record<string, unknown>[];
  return rows.map((r) => ({ key: String(r.key), day: Number(r.day), stored: Number(r.stored), dropped: Number(r.dropped), lastAt: Number(r.last_at) }));
}
