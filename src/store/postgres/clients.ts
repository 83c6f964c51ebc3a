// Monitoring clients on PostgreSQL: the last time each reported, which is what "online" means,
// and the online stretch it is in (device history, devices.ts).
import type { SQL } from "bun";
import type { MonitorClient, SeenOptions } from "../../core/store.ts";
import { toClient } from "../sqlite/clients.ts";
import { unit } from "./tx.ts";

type Row = Record<string, unknown>;


/**
 * Before the upsert, with `history`: the stretch this beat ends (it comes more than `gap` after the
 * last one) goes into client_online. The client's row is locked first, so two instances taking
 * beats of one client at once file a stretch once, and the second sees the first's beat.
 */
async function fileStretch(tx: SQL, c: Omit<MonitorClient, "id">, gap: number): Promise<void> {
  const [row] = await tx`SELECT id, online_since, last_seen_at, online_beats FROM clients WHERE kind = ${c.kind} AND pid = ${c.pid} AND name = ${c.name} FOR UPDATE`;
  if (!row || Number(row.online_beats) === 0 || c.lastSeenAt - Number(row.last_seen_at) <= gap) return;
  await tx`INSERT INTO client_online (client_id, start_at, end_at, beats) VALUES (${row.id}, ${row.online_since}, ${row.last_seen_at}, ${row.online_beats})`;
}

/**
 * Upserts the client and marks its accounts seen. The accounts are touched in id order: a create
 * holds its candidate accounts' rows in that order too, so the two never wait on each other in a
 * circle. `history.gap`: also keep the client's online stretch (migration 013), as on SQLite
 * (../sqlite/clients.ts): a beat within `gap` seconds of the last extends the stretch on the
 * clients row; a later one first files the finished stretch (devices.ts reads both). Without
 * `history` the stretch is left as it is.
 */
export function recordClientSeen(sql: SQL, c: Omit<MonitorClient, "id">, accountIds: number[], history?: { gap: number }, o: SeenOptions = {}): Promise<void> {
  const track = history ? 1 : 0;
  const gap = history?.gap ?? 0;
  return unit(sql, async (tx) => {
    // A report that is no client of its own refreshes a listed row, never adds one (core/store.ts SeenOptions).
    const listed = !o.onlyListed || ((await tx`SELECT 1 FROM clients WHERE kind = ${c.kind} AND pid = ${c.pid} AND name = ${c.name}`) as unknown[]).length > 0;
    if (listed) await upsertClient(tx, c, track, gap, history !== undefined);
    for (const id of [...new Set(accountIds)].sort((a, b) => a - b)) {
      await tx`UPDATE channel_accounts SET last_seen_at = GREATEST(last_seen_at, ${c.lastSeenAt}) WHERE id = ${id}`;
    }
  });
}

/** The row's upsert, and the stretch a beat after a silence ends. */
async function upsertClient(tx: SQL, c: Omit<MonitorClient, "id">, track: number, gap: number, history: boolean): Promise<void> {
  if (history) await fileStretch(tx, c, gap);
  // A beat after a silence longer than the gap (or the first one) starts a new stretch.
  await tx`
    INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at, online_since, online_beats)
    VALUES (${c.kind}, ${c.pid}, ${c.name}, ${c.channelId}, ${c.extData}, ${c.lastSeenAt}, ${c.lastSeenAt}, ${track})
    ON CONFLICT (kind, pid, name) DO UPDATE SET
      channel_id = COALESCE(excluded.channel_id, clients.channel_id),
      ext_data = CASE WHEN excluded.ext_data = '' THEN clients.ext_data ELSE excluded.ext_data END,
      online_since = CASE WHEN ${track}::int = 0 THEN clients.online_since
        WHEN clients.online_beats = 0 OR excluded.last_seen_at - clients.last_seen_at > ${gap}::bigint THEN excluded.last_seen_at
        ELSE clients.online_since END,
      online_beats = CASE WHEN ${track}::int = 0 THEN clients.online_beats
        WHEN clients.online_beats = 0 OR excluded.last_seen_at - clients.last_seen_at > ${gap}::bigint THEN 1
        ELSE clients.online_beats + 1 END,
      last_seen_at = GREATEST(clients.last_seen_at, excluded.last_seen_at)`;
}

export async function listClients(sql: SQL): Promise<MonitorClient[]> {
  return ((await sql`SELECT * FROM clients ORDER BY last_seen_at DESC, id`) as Row[]).map(toClient);
}
