// Monitoring clients on PostgreSQL: the last time each reported, which is what "online" means.
import type { SQL } from "bun";
import type { MonitorClient } from "../../core/store.ts";
import { unit } from "./tx.ts";

type Row = Record<string, unknown>;

function toClient(r: Row): MonitorClient {
  return {
    id: Number(r.id),
    kind: r.kind === "third-account" || r.kind === "vmq" ? r.kind : "phone",
    pid: Number(r.pid ?? 0),
    name: String(r.name ?? ""),
    channelId: r.channel_id === null || r.channel_id === undefined ? null : Number(r.channel_id),
    extData: String(r.ext_data ?? ""),
    lastSeenAt: Number(r.last_seen_at ?? 0),
  };
}

/**
 * Upserts the client and marks its accounts seen. The accounts are touched in id order: a create
 * holds its candidate accounts' rows in that order too, so the two never wait on each other in a
 * circle. (`history`, the client's online intervals of migration 013, is not kept on PostgreSQL
 * yet: see README.md.)
 */
export function recordClientSeen(sql: SQL, c: Omit<MonitorClient, "id">, accountIds: number[]): Promise<void> {
  return unit(sql, async (tx) => {
    await tx`
      INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at) VALUES (${c.kind}, ${c.pid}, ${c.name}, ${c.channelId}, ${c.extData}, ${c.lastSeenAt})
      ON CONFLICT (kind, pid, name) DO UPDATE SET
        channel_id = COALESCE(excluded.channel_id, clients.channel_id),
        ext_data = CASE WHEN excluded.ext_data = '' THEN clients.ext_data ELSE excluded.ext_data END,
        last_seen_at = GREATEST(clients.last_seen_at, excluded.last_seen_at)`;
    for (const id of [...new Set(accountIds)].sort((a, b) => a - b)) {
      await tx`UPDATE channel_accounts SET last_seen_at = GREATEST(last_seen_at, ${c.lastSeenAt}) WHERE id = ${id}`;
    }
  });
}

export async function listClients(sql: SQL): Promise<MonitorClient[]> {
  return ((await sql`SELECT * FROM clients ORDER BY last_seen_at DESC, id`) as Row[]).map(toClient);
}
