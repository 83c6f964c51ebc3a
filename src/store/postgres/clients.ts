// Monitoring clients on PostgreSQL: the last time each reported, which is what "online" means,
// and the online stretch it is in (device history, devices.ts). The beats that move them are
// written by beats.ts (migrations 038 and 045).
import type { SQL } from "bun";
import type { MonitorClient } from "../../core/store.ts";
import { toClient } from "../rows.ts";

type Row = Record<string, unknown>;

export async function listClients(sql: SQL): Promise<MonitorClient[]> {
  return ((await sql`SELECT * FROM clients ORDER BY last_seen_at DESC, id`) as Row[]).map(toClient);
}
