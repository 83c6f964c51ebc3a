// The audit log on bun:sqlite: append, and list newest first with keyset paging (an id bound, never
// OFFSET), so page 1000 costs what page 1 costs. Filters use the (actor, id), (action, id) and (target, id) indexes.
import type { Database } from "bun:sqlite";
import type { AuditEntry, AuditFilter, NewAuditEntry } from "../../core/admin/store.ts";

type Row = Record<string, unknown>;

const parse = (v: unknown): unknown => (v === null || v === undefined ? null : JSON.parse(String(v)));
/** Shared with the PostgreSQL adapter, as toEntry. */
export const stringify = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

export function toEntry(r: Row): AuditEntry {
  return {
    id: Number(r.id),
    at: Number(r.at),
    actor: String(r.actor),
    action: String(r.action),
    target: String(r.target),
    ip: String(r.ip),
    before: parse(r.before_json),
    after: parse(r.after_json),
    reason: String(r.reason),
  };
}

export function appendAudit(db: Database, e: NewAuditEntry): number {
  const row = db
    .query(
      `INSERT INTO audit_log (at, actor, action, target, ip, before_json, after_json, reason)
       VALUES ($at, $actor, $action, $target, $ip, $before, $after, $reason) RETURNING id`,
    )
    .get({ at: e.at, actor: e.actor, action: e.action, target: e.target, ip: e.ip, before: stringify(e.before), after: stringify(e.after), reason: e.reason }) as { id: number };
  return row.id;
}

export function listAudit(db: Database, f: AuditFilter): AuditEntry[] {
  const where: string[] = [];
  const args: Record<string, string | number> = { limit: Math.max(1, Math.min(1000, f.limit)) };
  if (f.actor !== undefined) (where.push("actor = $actor COLLATE NOCASE"), (args.actor = f.actor));
  if (f.action !== undefined) (where.push("action = $action"), (args.action = f.action));
  if (f.target !== undefined) (where.push("target = $target"), (args.target = f.target));
  if (f.beforeId !== undefined) (where.push("id < $before"), (args.before = f.beforeId));
  if (f.afterId !== undefined) (where.push("id > $after"), (args.after = f.afterId));
  if (f.from !== undefined) (where.push("at >= $from"), (args.from = f.from));
  if (f.to !== undefined) (where.push("at < $to"), (args.to = f.to));
  const cond = where.length ? `WHERE ${where.join(" AND ")}` : "";
  // A page above `afterId` is the `limit` entries just above it, still shown newest first.
  const sql = f.afterId !== undefined
    ? `SELECT * FROM (SELECT * FROM audit_log ${cond} ORDER BY id ASC LIMIT $limit) ORDER BY id DESC`
    : `SELECT * FROM audit_log ${cond} ORDER BY id DESC LIMIT $limit`;
  return (db.query(sql).all(args) as Row[]).map(toEntry);
}
