// Keyed clients: phones (V免签, SmsForwarder, report-API clients) with a secret of their own, the
// accounts each watches, and the report groups those bindings make (core/clients/watch.ts decides
// them; this file only reads and writes). Adding one also lists it in `client list` (never seen)
// so the operator sees the phone before its first report.
import type { Database } from "bun:sqlite";
import type { AddKeyedClientResult, KeyedClient, KeyedKind, NewKeyedClient, NonceClaim, ReportGroupRule } from "../../core/store.ts";
import { toChannel } from "../rows.ts";
import { inTransaction } from "./transaction.ts";

type Row = Record<string, unknown>;

const KINDS: readonly KeyedKind[] = ["vmq", "smsforwarder", "report"];

/** Shared with the PostgreSQL adapter (the schemas match column for column). */
export function toKeyedClient(r: Row): KeyedClient {
  const kind = KINDS.includes(r.kind as KeyedKind) ? (r.kind as KeyedKind) : "vmq";
  return {
    id: Number(r.id),
    kind,
    pid: Number(r.pid),
    name: String(r.name),
    key: String(r.key),
    accountIds: accountList(String(r.accounts ?? "")),
    createdAt: Number(r.created_at),
    lastHeartT: Number(r.last_heart_t),
    lastHeartAt: Number(r.last_heart_at),
    lastPushAt: Number(r.last_push_at),
  };
}

export const accountList = (text: string): number[] => text.split(",").filter((x) => x !== "").map(Number);

/** Why an add is refused, from what the database holds (shared wording for both adapters). */
export function addRefusal(c: NewKeyedClient, facts: { merchant: boolean; name: boolean; key: boolean; secret: boolean }): string | null {
  if (c.pid !== 0 && !facts.merchant) return `no merchant with pid ${c.pid}`;
  if (facts.name) return `a client named ${c.name} exists already`;
  // V免签 requests name no client: the key is the only way to tell two clients apart.
  if (facts.key) return "another client uses this key; each client needs its own";
  // A report signed with it would read as the merchant's own report.
  if (facts.secret) return "this key is a merchant's AppSecret; a client needs a secret of its own";
  return null;
}

export function addKeyedClient(db: Database, c: NewKeyedClient): AddKeyedClientResult {
  return inTransaction(db, (): AddKeyedClientResult => {
    const refused = addRefusal(c, {
      merchant: db.query("SELECT 1 FROM merchants WHERE pid = $pid").get({ pid: c.pid }) !== null,
      name: db.query("SELECT 1 FROM keyed_clients WHERE name = $name").get({ name: c.name }) !== null,
      key: db.query("SELECT 1 FROM keyed_clients WHERE key = $key").get({ key: c.key }) !== null,
      secret: db.query("SELECT 1 FROM merchants WHERE secret = $key").get({ key: c.key }) !== null,
    });
    if (refused) return { kind: "refused", reason: refused };
    const row = db
      .query("INSERT INTO keyed_clients (kind, pid, name, key, accounts, created_at) VALUES ($kind, $pid, $name, $key, $accounts, $now) RETURNING *")
      .get({ kind: c.kind, pid: c.pid, name: c.name, key: c.key, accounts: c.accountIds.join(","), now: c.now }) as Row;
    db.query(
      `INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at) VALUES ($kind, $pid, $name, NULL, '', 0)
       ON CONFLICT (kind, pid, name) DO NOTHING`,
    ).run({ kind: c.kind, pid: c.pid, name: c.name });
    return { kind: "added", client: toKeyedClient(row) };
  });
}

export function listKeyedClients(db: Database): KeyedClient[] {
  return (db.query("SELECT * FROM keyed_clients ORDER BY id").all() as Row[]).map(toKeyedClient);
}

export function getKeyedClient(db: Database, id: number): KeyedClient | null {
  const row = db.query("SELECT * FROM keyed_clients WHERE id = $id").get({ id }) as Row | null;
  return row ? toKeyedClient(row) : null;
}

export function bindKeyedClient(db: Database, id: number, accountIds: number[]): KeyedClient | null {
  const row = db.query("UPDATE keyed_clients SET accounts = $accounts WHERE id = $id RETURNING *").get({ id, accounts: accountIds.join(",") }) as Row | null;
  return row ? toKeyedClient(row) : null;
}

export function removeKeyedClient(db: Database, id: number): KeyedClient | null {
  return inTransaction(db, () => {
    const row = db.query("DELETE FROM keyed_clients WHERE id = $id RETURNING *").get({ id }) as Row | null;
    if (!row) return null;
    const c = toKeyedClient(row);
    db.query("DELETE FROM clients WHERE kind = $kind AND pid = $pid AND name = $name").run({ kind: c.kind, pid: c.pid, name: c.name });
    db.query("DELETE FROM report_nonces WHERE client_id = $id").run({ id });
    return c;
  });
}

/** One transaction: every account and client read, the groups decided by `rule`, the changed ones written. */
export function refreshReportGroups(db: Database, rule: ReportGroupRule): number {
  return inTransaction(db, () => {
    const accounts = (db.query("SELECT * FROM channel_accounts ORDER BY id").all() as Row[]).map(toChannel);
    const groups = rule(accounts, listKeyedClients(db));
    const write = db.query("UPDATE channel_accounts SET report_group = $g WHERE id = $id AND report_group <> $g");
    let changed = 0;
    for (const a of accounts) changed += write.run({ id: a.id, g: groups.get(a.id) ?? a.id }).changes;
    return changed;
  });
}

/** Inside the caller's transaction: true when the timestamp is new for the client (and now taken). */
export function claimNonce(db: Database, n: NonceClaim): boolean {
  db.query("DELETE FROM report_nonces WHERE client_id = $id AND ts < $before").run({ id: n.clientId, before: n.forgetBefore });
  return db.query("INSERT INTO report_nonces (client_id, ts, seen_at) VALUES ($id, $ts, $at) ON CONFLICT DO NOTHING").run({ id: n.clientId, ts: n.ts, at: n.seenAt }).changes === 1;
}

/** Conditional: only a heartbeat newer than the last accepted one moves the client forward. */
export function acceptVmqHeart(db: Database, id: number, tMs: number, now: number): boolean {
  const r = db.query("UPDATE keyed_clients SET last_heart_t = $t, last_heart_at = $now WHERE id = $id AND last_heart_t < $t").run({ id, t: tMs, now });
  return r.changes === 1;
}

export function recordVmqPush(db: Database, id: number, now: number): void {
  db.query("UPDATE keyed_clients SET last_push_at = MAX(last_push_at, $now) WHERE id = $id").run({ id, now });
}
