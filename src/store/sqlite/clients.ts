// Monitoring clients (phones running a notification forwarder, third-party account watchers):
// the last time each reported, which is what "online" means for allocation and `client list`.
import type { Database } from "bun:sqlite";
import type { MonitorClient } from "../../core/store.ts";

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

export function recordClientSeen(db: Database, c: Omit<MonitorClient, "id">, accountIds: number[]): void {
  db.transaction(() => {
    // pid is never NULL here: SQLite treats NULLs as distinct in UNIQUE, which would add a row per beat.
    db.query(
      `INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at) VALUES ($kind, $pid, $name, $channel, $ext, $seen)
       ON CONFLICT (kind, pid, name) DO UPDATE SET
         channel_id = COALESCE(excluded.channel_id, channel_id),
         ext_data = CASE WHEN excluded.ext_data = '' THEN ext_data ELSE excluded.ext_data END,
         last_seen_at = MAX(last_seen_at, excluded.last_seen_at)`,
    ).run({ kind: c.kind, pid: c.pid, name: c.name, channel: c.channelId, ext: c.extData, seen: c.lastSeenAt });
    const touch = db.query("UPDATE channel_accounts SET last_seen_at = MAX(last_seen_at, $seen) WHERE id = $id");
    for (const id of accountIds) touch.run({ id, seen: c.lastSeenAt });
  }).immediate();
}

export function listClients(db: Database): MonitorClient[] {
  return (db.query("SELECT * FROM clients ORDER BY last_seen_at DESC, id").all() as Row[]).map(toClient);
}
