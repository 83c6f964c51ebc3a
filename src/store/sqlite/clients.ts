// Monitoring clients (phones running a notification forwarder, third-party account watchers,
// V免签 apps): the last time each reported, which is what "online" means for allocation and
// `client list`, and the online stretch it is in (device history, devices.ts).
import type { Database } from "bun:sqlite";
import type { MonitorClient, SeenOptions } from "../../core/store.ts";
import { prepared } from "./statement.ts";
import { inTransaction } from "./transaction.ts";
import { toClient } from "../rows.ts";

type Row = Record<string, unknown>;

/** Inside the upsert: the beat comes after a silence longer than the gap (or is the first one). */
const NEW_STRETCH = "(online_beats = 0 OR excluded.last_seen_at - last_seen_at > $gap)";

/** Before the upsert: the stretch the beat ends goes into client_online. */
const FILE_STRETCH = prepared(`INSERT INTO client_online (client_id, start_at, end_at, beats)
  SELECT id, online_since, last_seen_at, online_beats FROM clients
  WHERE kind = $kind AND pid = $pid AND name = $name AND online_beats > 0 AND $seen - last_seen_at > $gap AND $track = 1`);
const LISTED = prepared("SELECT 1 FROM clients WHERE kind = $kind AND pid = $pid AND name = $name");
// pid is never NULL here: SQLite treats NULLs as distinct in UNIQUE, which would add a row per beat.
const UPSERT = prepared(`INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at, online_since, online_beats)
  VALUES ($kind, $pid, $name, $channel, $ext, $seen, $seen, $track)
  ON CONFLICT (kind, pid, name) DO UPDATE SET
    channel_id = COALESCE(excluded.channel_id, channel_id),
    ext_data = CASE WHEN excluded.ext_data = '' THEN ext_data ELSE excluded.ext_data END,
    online_since = CASE WHEN $track = 0 THEN online_since WHEN ${NEW_STRETCH} THEN excluded.last_seen_at ELSE online_since END,
    online_beats = CASE WHEN $track = 0 THEN online_beats WHEN ${NEW_STRETCH} THEN 1 ELSE online_beats + 1 END,
    last_seen_at = MAX(last_seen_at, excluded.last_seen_at)`);
// An account's row is written only when its second moves (reports of one second leave it as it is).
const TOUCH = prepared("UPDATE channel_accounts SET last_seen_at = $seen WHERE id = $id AND last_seen_at < $seen");

/**
 * `history.gap`: also keep the client's online stretch (migration 013): a beat within `gap`
 * seconds of the last one extends the stretch on the clients row; a later one first files the
 * finished stretch in client_online (devices.ts reads both). Without `history` the stretch is left
 * as it is.
 */
export function recordClientSeen(db: Database, c: Omit<MonitorClient, "id">, accountIds: number[], history?: { gap: number }, o: SeenOptions = {}): void {
  inTransaction(db, () => {
    const key = { kind: c.kind, pid: c.pid, name: c.name, seen: c.lastSeenAt, gap: history?.gap ?? 0, track: history ? 1 : 0 };
    const listed = !o.onlyListed || LISTED(db).get({ kind: c.kind, pid: c.pid, name: c.name }) !== null;
    if (listed) upsertClient(db, c, key, history);
    const touch = TOUCH(db);
    for (const id of accountIds) touch.run({ id, seen: c.lastSeenAt });
  });
}

/** The row's upsert, and the stretch a beat after a silence ends. */
function upsertClient(db: Database, c: Omit<MonitorClient, "id">, key: Record<string, string | number>, history?: { gap: number }): void {
  // A read of the unique (kind, pid, name) index that writes nothing while beats keep coming.
  if (history) FILE_STRETCH(db).run(key);
  UPSERT(db).run({ ...key, channel: c.channelId, ext: c.extData });
}

export function listClients(db: Database): MonitorClient[] {
  return (db.query("SELECT * FROM clients ORDER BY last_seen_at DESC, id").all() as Row[]).map(toClient);
}
