// V免签 clients on PostgreSQL: the keys the vmq routes verify against and the two times getState
// answers. Adds are serialized across instances (an advisory lock) so the name and key checks hold.
import type { SQL } from "bun";
import type { AddVmqClientResult, VmqClient } from "../../core/store.ts";
import { toVmqClient } from "../sqlite/vmq-clients.ts";
import { lock, Lock, unit } from "./tx.ts";

type Row = Record<string, unknown>;

export function addVmqClient(sql: SQL, c: { pid: number; name: string; key: string; accountIds: number[]; now: number }): Promise<AddVmqClientResult> {
  return unit(sql, async (tx): Promise<AddVmqClientResult> => {
    await lock(tx, Lock.vmqClients);
    if (!(await tx`SELECT 1 FROM merchants WHERE pid = ${c.pid}`).length) return { kind: "refused", reason: `no merchant with pid ${c.pid}` };
    if ((await tx`SELECT 1 FROM vmq_clients WHERE name = ${c.name}`).length) return { kind: "refused", reason: `a V免签 client named ${c.name} exists already` };
    // Requests name no client: the key is the only way to tell two clients apart.
    if ((await tx`SELECT 1 FROM vmq_clients WHERE key = ${c.key}`).length) return { kind: "refused", reason: "another V免签 client uses this key; each client needs its own" };
    const [row] = await tx`
      INSERT INTO vmq_clients (pid, name, key, accounts, created_at) VALUES (${c.pid}, ${c.name}, ${c.key}, ${c.accountIds.join(",")}, ${c.now}) RETURNING *`;
    await tx`
      INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at) VALUES ('vmq', ${c.pid}, ${c.name}, NULL, '', 0)
      ON CONFLICT (kind, pid, name) DO NOTHING`;
    return { kind: "added", client: toVmqClient(row) };
  });
}

export async function listVmqClients(sql: SQL): Promise<VmqClient[]> {
  return ((await sql`SELECT * FROM vmq_clients ORDER BY id`) as Row[]).map(toVmqClient);
}

export async function getVmqClient(sql: SQL, id: number): Promise<VmqClient | null> {
  const rows = await sql`SELECT * FROM vmq_clients WHERE id = ${id}`;
  return rows.length ? toVmqClient(rows[0]) : null;
}

/** Conditional: only a heartbeat newer than the last accepted one moves the client forward. */
export async function acceptVmqHeart(sql: SQL, id: number, tMs: number, now: number): Promise<boolean> {
  const r = await sql`UPDATE vmq_clients SET last_heart_t = ${tMs}, last_heart_at = ${now} WHERE id = ${id} AND last_heart_t < ${tMs}`;
  return r.count === 1;
}

export async function recordVmqPush(sql: SQL, id: number, now: number): Promise<void> {
  await sql`UPDATE vmq_clients SET last_push_at = GREATEST(last_push_at, ${now}) WHERE id = ${id}`;
}
