// The audit log on PostgreSQL: append, and list newest first with keyset paging (an id bound, never
// OFFSET), as ../sqlite/admin-audit.ts. The actor filter compares lower() to lower(), which the
// (lower(actor), id) index of migration 008 serves.
import type { SQL } from "bun";
import type { AuditEntry, AuditFilter, NewAuditEntry } from "../../core/admin/store.ts";
import { stringify, toEntry } from "../sqlite/admin-audit.ts";

type Row = Record<string, unknown>;

export async function appendAudit(sql: SQL, e: NewAuditEntry): Promise<number> {
  const [row] = await sql`
    INSERT INTO audit_log (at, actor, action, target, ip, before_json, after_json, reason)
    VALUES (${e.at}, ${e.actor}, ${e.action}, ${e.target}, ${e.ip}, ${stringify(e.before)}, ${stringify(e.after)}, ${e.reason}) RETURNING id`;
  return Number(row.id);
}

export async function listAudit(sql: SQL, f: AuditFilter): Promise<AuditEntry[]> {
  const where: string[] = [];
  const args: (string | number)[] = [];
  const arg = (v: string | number) => (args.push(v), `$${args.length}`);
  if (f.actor !== undefined) where.push(`lower(actor) = lower(${arg(f.actor)}::text)`);
  if (f.action !== undefined) where.push(`action = ${arg(f.action)}::text`);
  if (f.target !== undefined) where.push(`target = ${arg(f.target)}::text`);
  if (f.beforeId !== undefined) where.push(`id < ${arg(f.beforeId)}::bigint`);
  if (f.afterId !== undefined) where.push(`id > ${arg(f.afterId)}::bigint`);
  if (f.from !== undefined) where.push(`at >= ${arg(f.from)}::bigint`);
  if (f.to !== undefined) where.push(`at < ${arg(f.to)}::bigint`);
  const cond = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const limit = arg(Math.max(1, Math.min(1000, Math.trunc(f.limit) || 1)));
  // A page above `afterId` is the `limit` entries just above it, still shown newest first.
  const text = f.afterId !== undefined
    ? `SELECT * FROM (SELECT * FROM audit_log ${cond} ORDER BY id ASC LIMIT ${limit}::bigint) page ORDER BY id DESC`
    : `SELECT * FROM audit_log ${cond} ORDER BY id DESC LIMIT ${limit}::bigint`;
  return ((await sql.unsafe(text, args)) as Row[]).map(toEntry);
}
