// Keyed clients on PostgreSQL: the secrets report routes verify against, the accounts each client
// watches, and the report groups those bindings make. Adds are serialized across instances (an
// advisory lock) so the name and key checks hold; a group refresh takes the same lock, so two
// operators' changes are computed one after the other.
import type { SQL } from "bun";
import type { AddKeyedClientResult, KeyedClient, NewKeyedClient, NonceClaim, ReportGroupRule } from "../../core/store.ts";
import { toChannel } from "../rows.ts";
import { addRefusal, toKeyedClient } from "../sqlite/keyed-clients.ts";
import { lock, Lock, unit } from "./tx.ts";

type Row = Record<string, unknown>;

export function addKeyedClient(sql: SQL, c: NewKeyedClient): Promise<AddKeyedClientResult> {
  return unit(sql, async (tx): Promise<AddKeyedClientResult> => {
    await lock(tx, Lock.vmqClients);
    const refused = addRefusal(c, {
      merchant: (await tx`SELECT 1 FROM merchants WHERE pid = ${c.pid}`).length > 0,
      name: (await tx`SELECT 1 FROM keyed_clients WHERE name = ${c.name}`).length > 0,
      key: (await tx`SELECT 1 FROM keyed_clients WHERE key = ${c.key}`).length > 0,
      secret: (await tx`SELECT 1 FROM merchants WHERE secret = ${c.key}`).length > 0,
    });
    if (refused) return { kind: "refused", reason: refused };
    const [row] = await tx`
      INSERT INTO keyed_clients (kind, pid, name, key, accounts, created_at)
      VALUES (${c.kind}, ${c.pid}, ${c.name}, ${c.key}, ${c.accountIds.join(",")}, ${c.now}) RETURNING *`;
    await tx`
      INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at) VALUES (${c.kind}, ${c.pid}, ${c.name}, NULL, '', 0)
      ON CONFLICT (kind, pid, name) DO NOTHING`;
    return { kind: "added", client: toKeyedClient(row) };
  });
}

export async function listKeyedClients(sql: SQL): Promise<KeyedClient[]> {
  return ((await sql`SELECT * FROM keyed_clients ORDER BY id`) as Row[]).map(toKeyedClient);
}

export async function getKeyedClient(sql: SQL, id: number): Promise<KeyedClient | null> {
  const rows = await sql`SELECT * FROM keyed_clients WHERE id = ${id}`;
  return rows.length ? toKeyedClient(rows[0]) : null;
}

export async function bindKeyedClient(sql: SQL, id: number, accountIds: number[]): Promise<KeyedClient | null> {
  const rows = await sql`UPDATE keyed_clients SET accounts = ${accountIds.join(",")} WHERE id = ${id} RETURNING *`;
  return rows.length ? toKeyedClient(rows[0]) : null;
}

export function removeKeyedClient(sql: SQL, id: number): Promise<KeyedClient | null> {
  return unit(sql, async (tx) => {
    const rows = await tx`DELETE FROM keyed_clients WHERE id = ${id} RETURNING *`;
    if (!rows.length) return null;
    const c = toKeyedClient(rows[0]);
    await tx`DELETE FROM clients WHERE kind = ${c.kind} AND pid = ${c.pid} AND name = ${c.name}`;
    await tx`DELETE FROM report_nonces WHERE client_id = ${id}`;
    return c;
  });
}

/**
 * Every account row is locked (in id order) before the groups are read and written, so no create
 * on another instance allocates against a group while it changes (creates lock their group's rows).
 */
export function refreshReportGroups(sql: SQL, rule: ReportGroupRule): Promise<number> {
  return unit(sql, async (tx) => {
    await lock(tx, Lock.vmqClients);
    const accounts = ((await tx`SELECT * FROM channel_accounts ORDER BY id FOR UPDATE`) as Row[]).map(toChannel);
    const groups = rule(accounts, ((await tx`SELECT * FROM keyed_clients ORDER BY id`) as Row[]).map(toKeyedClient));
    let changed = 0;
    for (const a of accounts) {
      const g = groups.get(a.id) ?? a.id;
      if (g !== a.reportGroup) changed += (await tx`UPDATE channel_accounts SET report_group = ${g} WHERE id = ${a.id}`).count;
    }
    return changed;
  });
}

/** Inside the caller's transaction: true when the timestamp is new for the client (and now taken). */
export async function claimNonce(tx: SQL, n: NonceClaim): Promise<boolean> {
  await tx`DELETE FROM report_nonces WHERE client_id = ${n.clientId} AND ts < ${n.forgetBefore}`;
  const rows = await tx`INSERT INTO report_nonces (client_id, ts, seen_at) VALUES (${n.clientId}, ${n.ts}, ${n.seenAt}) ON CONFLICT DO NOTHING RETURNING ts`;
  return rows.length === 1;
}

/** Conditional: only a heartbeat newer than the last accepted one moves the client forward. */
export async function acceptVmqHeart(sql: SQL, id: number, tMs: number, now: number): Promise<boolean> {
  const r = await sql`UPDATE keyed_clients SET last_heart_t = ${tMs}, last_heart_at = ${now} WHERE id = ${id} AND last_heart_t < ${tMs}`;
  return r.count === 1;
}

export async function recordVmqPush(sql: SQL, id: number, now: number): Promise<void> {
  await sql`UPDATE keyed_clients SET last_push_at = GREATEST(last_push_at, ${now}) WHERE id = ${id}`;
}
