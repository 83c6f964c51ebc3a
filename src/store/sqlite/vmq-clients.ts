// V免签 clients: the communication keys the vmq routes verify against, and the two times its
// getState answers (last heartbeat, last push). Adding one also lists it in `client list` (kind
// vmq, never seen) so the operator sees the phone before it has sent its first heartbeat.
import type { Database } from "bun:sqlite";
import type { AddVmqClientResult, VmqClient } from "../../core/store.ts";
import { inTransaction } from "./transaction.ts";

type Row = Record<string, unknown>;

/** Shared with the PostgreSQL adapter (the schemas match column for column). */
export function toVmqClient(r: Row): VmqClient {
  return {
    id: Number(r.id),
    pid: Number(r.pid),
    name: String(r.name),
    key: String(r.key),
    accountIds: String(r.accounts ?? "").split(",").filter((x) => x !== "").map(Number),
    createdAt: Number(r.created_at),
    lastHeartT: Number(r.last_heart_t),
    lastHeartAt: Number(r.last_heart_at),
    lastPushAt: Number(r.last_push_at),
  };
}

export function addVmqClient(db: Database, c: { pid: number; name: string; key: string; accountIds: number[]; now: number }): AddVmqClientResult {
  return inTransaction(db, (): AddVmqClientResult => {
    if (!db.query("SELECT 1 FROM merchants WHERE pid = $pid").get({ pid: c.pid })) return { kind: "refused", reason: `no merchant with pid ${c.pid}` };
    if (db.query("SELECT 1 FROM vmq_clients WHERE name = $name").get({ name: c.name })) return { kind: "refused", reason: `a V免签 client named ${c.name} exists already` };
    // Requests name no client: the key is the only way to tell two clients apart.
    if (db.query("SELECT 1 FROM vmq_clients WHERE key = $key").get({ key: c.key })) return { kind: "refused", reason: "another V免签 client uses this key; each client needs its own" };
    const row = db
      .query("INSERT INTO vmq_clients (pid, name, key, accounts, created_at) VALUES ($pid, $name, $key, $accounts, $now) RETURNING *")
      .get({ pid: c.pid, name: c.name, key: c.key, accounts: c.accountIds.join(","), now: c.now }) as Row;
    db.query(
      `INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at) VALUES ('vmq', $pid, $name, NULL, '', 0)
       ON CONFLICT (kind, pid, name) DO NOTHING`,
    ).run({ pid: c.pid, name: c.name });
    return { kind: "added", client: toVmqClient(row) };
  });
}

export function listVmqClients(db: Database): VmqClient[] {
  return (db.query("SELECT * FROM vmq_clients ORDER BY id").all() as Row[]).map(toVmqClient);
}

export function getVmqClient(db: Database, id: number): VmqClient | null {
  const row = db.query("SELECT * FROM vmq_clients WHERE id = $id").get({ id }) as Row | null;
  return row ? toVmqClient(row) : null;
}

/** Conditional: only a heartbeat newer than the last accepted one moves the client forward. */
export function acceptVmqHeart(db: Database, id: number, tMs: number, now: number): boolean {
  const r = db.query("UPDATE vmq_clients SET last_heart_t = $t, last_heart_at = $now WHERE id = $id AND last_heart_t < $t").run({ id, t: tMs, now });
  return r.changes === 1;
}

export function recordVmqPush(db: Database, id: number, now: number): void {
  db.query("UPDATE vmq_clients SET last_push_at = MAX(last_push_at, $now) WHERE id = $id").run({ id, now });
}
