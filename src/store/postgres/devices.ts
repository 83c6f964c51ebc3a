// The DeviceStore sub-port (core/clients/store.ts) on PostgreSQL, as ../sqlite/devices.ts: the
// online stretches of each monitoring client (the finished ones in client_online, the current one
// on its clients row, both kept by clients.ts recordClientSeen) and the reads of the console's
// clients pages. Without SQLite's INDEXED BY: a client's reports repeat the partial index's own
// condition, so the planner may take reports_by_client (heartbeats are not in it).
import type { SQL } from "bun";
import type { ClientReportQuery, DeviceStore, OnlineInterval } from "../../core/clients/store.ts";
import type { StoredReport } from "../../core/store.ts";
import { toReport } from "../rows.ts";
import { toClient } from "../rows.ts";

type Row = Record<string, unknown>;

/** The partial index's condition (migration 013), word for word. */
const NOT_HEART = "kind NOT IN ('heart', 'third-heart', 'vmq-heart')";

async function clientReports(sql: SQL, q: ClientReportQuery): Promise<StoredReport[]> {
  const kinds = q.kinds.filter((k) => /^[a-z-]{1,20}$/.test(k));
  if (kinds.length === 0) return [];
  const values: (string | number | null)[] = [q.name, q.pid, q.afterId ?? 0, q.limit, ...kinds];
  const text = `SELECT * FROM reports
    WHERE client = $1::text AND ${NOT_HEART} AND kind IN (${kinds.map((_, i) => `$${i + 5}::text`).join(", ")})
      AND (pid = $2::bigint OR ($2::bigint IS NULL AND pid IS NULL)) AND id > $3::bigint
      ${q.unread ? "AND outcome = 'unmatched' AND amount IS NULL AND reason LIKE 'not a payment message%'" : ""}
    ORDER BY id DESC LIMIT $4::bigint`;
  return ((await sql.unsafe(text, values)) as Row[]).map(toReport);
}

/**
 * The finished stretches and the current one in one statement, so one snapshot: a beat filing the
 * current stretch meanwhile can neither show it twice nor hide it.
 */
async function onlineIntervals(sql: SQL, clientId: number, since: number, limit: number): Promise<OnlineInterval[]> {
  // Intervals never overlap: the one that started last before `since` is the only older one that may reach into it.
  const rows = await sql`
    SELECT * FROM (
      SELECT start_at, end_at, beats, 0 AS current FROM client_online WHERE client_id = ${clientId} AND end_at >= ${since}
        AND start_at >= (SELECT COALESCE(MAX(start_at), 0) FROM client_online WHERE client_id = ${clientId} AND start_at < ${since})
      ORDER BY start_at DESC LIMIT ${limit}) finished
    UNION ALL
    SELECT online_since, last_seen_at, online_beats, 1 FROM clients WHERE id = ${clientId} AND online_beats > 0 AND last_seen_at >= ${since}
    ORDER BY current, start_at`;
  return (rows as Row[]).map((r): OnlineInterval => ({ startAt: Number(r.start_at), endAt: Number(r.end_at), beats: Number(r.beats) }));
}

export function postgresDevices(db: () => Promise<SQL>): DeviceStore {
  return {
    getClient: async (id) => {
      const rows = await (await db())`SELECT * FROM clients WHERE id = ${id}`;
      return rows.length ? toClient(rows[0]) : null;
    },
    onlineIntervals: async (clientId, since, limit) => onlineIntervals(await db(), clientId, since, limit),
    clientReports: async (q) => clientReports(await db(), q),
    merchantReports: async (pid, o) => {
      const rows = await (await db())`
        SELECT * FROM reports WHERE pid = ${pid} AND created_at >= ${o.since} AND id > ${o.afterId ?? 0} ORDER BY created_at DESC, id DESC LIMIT ${o.limit}`;
      return (rows as Row[]).map(toReport);
    },
    // Oldest first by id; rows another instance's prune holds are skipped rather than waited for.
    pruneIntervals: async (before, batch) => {
      const r = await (await db())`
        DELETE FROM client_online WHERE id IN (SELECT id FROM client_online WHERE end_at < ${before} ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED)`;
      return r.count;
    },
  };
}
