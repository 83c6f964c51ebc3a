// Monitoring clients on PostgreSQL: the last time each reported, which is what "online" means,
// and the online stretch it is in (device history, devices.ts).
import type { SQL } from "bun";
import type { MonitorClient, SeenOptions } from "../../core/store.ts";
import { toClient } from "../rows.ts";
import { retried } from "./tx.ts";

type Row = Record<string, unknown>;


/**
 * Upserts the client and marks its accounts seen, in one call of migration 038's function (its own
 * transaction, rerun after a deadlock). The client's row is locked first; the accounts are touched
 * in id order, as a create holds its candidate accounts' rows, so the two never wait on each other
 * in a circle, and each only when its second moves. `history.gap`: also keep the client's online
 * stretch (migration 013), as on SQLite (../sqlite/clients.ts): a beat within `gap` seconds of the
 * last extends the stretch on the clients row; a later one first files the finished stretch
 * (devices.ts reads both). Without `history` the stretch is left as it is. A report that is no
 * client of its own (`onlyListed`) refreshes a listed row, never adds one (core/store.ts SeenOptions).
 */
export async function recordClientSeen(sql: SQL, c: Omit<MonitorClient, "id">, accountIds: number[], history?: { gap: number }, o: SeenOptions = {}): Promise<void> {
  const ids = accountIds.map((id) => Math.trunc(id));
  await retried(
    () => sql`SELECT xpay_client_seen(${c.kind}, ${c.pid}::bigint, ${c.name}, ${c.channelId}::bigint, ${c.extData}, ${c.lastSeenAt}::bigint,
      ${history !== undefined}::boolean, ${history?.gap ?? 0}::bigint, ${o.onlyListed === true}::boolean, ${ids}::bigint[])`,
  );
}

export async function listClients(sql: SQL): Promise<MonitorClient[]> {
  return ((await sql`SELECT * FROM clients ORDER BY last_seen_at DESC, id`) as Row[]).map(toClient);
}
