// Device history on SQLite (core/clients/store.ts): the online stretches of each monitoring client
// (the finished ones in client_online, the current one on its clients row, both kept by
// clients.ts recordClientSeen) and the reads of the console's clients pages. Every read walks an
// index from one end: a client's stretches by (client_id, start_at), its reports by the partial
// reports_by_client (heartbeats are not in it), a merchant's recent reports by reports_by_pid
// (pid, created_at). The prune walks client_online by id, oldest first: one row per outage keeps
// it small.
import type { Database } from "bun:sqlite";
import type { ClientReportQuery, DeviceStore, OnlineInterval } from "../../core/clients/store.ts";
import { toClient } from "../rows.ts";
import { toReport } from "../rows.ts";

type Row = Record<string, unknown>;

/** The partial index's own condition, repeated so the planner may use reports_by_client. */
const NOT_HEART = "kind NOT IN ('heart', 'third-heart', 'vmq-heart')";

export function clientReports(db: Database, q: ClientReportQuery) {
  const kinds = q.kinds.filter((k) => /^[a-z-]{1,20}$/.test(k));
  if (kinds.length === 0) return [];
  const rows = db
    .query(
      `SELECT * FROM reports INDEXED BY reports_by_client
       WHERE client = $client AND ${NOT_HEART} AND kind IN (${kinds.map((k) => `'${k}'`).join(", ")})
         AND (pid = $pid OR ($pid IS NULL AND pid IS NULL)) AND id > $after
         ${q.unread ? "AND outcome = 'unmatched' AND amount IS NULL AND reason LIKE 'not a payment message%'" : ""}
       ORDER BY id DESC LIMIT $limit`,
    )
    .all({ client: q.name, pid: q.pid, after: q.afterId ?? 0, limit: q.limit }) as Row[];
  return rows.map(toReport);
}

export function sqliteDevices(db: Database): DeviceStore {
  return {
    getClient: async (id) => {
      const r = db.query("SELECT * FROM clients WHERE id = $id").get({ id }) as Row | null;
      return r ? toClient(r) : null;
    },
    onlineIntervals: async (clientId, since, limit) => {
      const open = db.query("SELECT online_since, last_seen_at, online_beats FROM clients WHERE id = $client AND online_beats > 0 AND last_seen_at >= $since").get({ client: clientId, since }) as Row | null;
      const rows = db
        .query(
          // Intervals never overlap: the one that started last before `since` is the only older one that may reach into it.
          `SELECT start_at, end_at, beats FROM client_online WHERE client_id = $client AND end_at >= $since
             AND start_at >= (SELECT COALESCE(MAX(start_at), 0) FROM client_online WHERE client_id = $client AND start_at < $since)
           ORDER BY start_at DESC LIMIT $limit`,
        )
        .all({ client: clientId, since, limit }) as Row[];
      const closed = rows.reverse().map((r): OnlineInterval => ({ startAt: Number(r.start_at), endAt: Number(r.end_at), beats: Number(r.beats) }));
      return open ? [...closed, { startAt: Number(open.online_since), endAt: Number(open.last_seen_at), beats: Number(open.online_beats) }] : closed;
    },
    clientReports: async (q) => clientReports(db, q),
    merchantReports: async (pid, o) => {
      const rows = db
        .query("SELECT * FROM reports WHERE pid = $pid AND created_at >= $since AND id > $after ORDER BY created_at DESC, id DESC LIMIT $limit")
        .all({ pid, since: o.since, after: o.afterId ?? 0, limit: o.limit }) as Row[];
      return rows.map(toReport);
    },
    pruneIntervals: async (before, batch) =>
      db.query("DELETE FROM client_online WHERE id IN (SELECT id FROM client_online WHERE end_at < $before ORDER BY id LIMIT $batch)").run({ before, batch }).changes,
  };
}
