// A PostgreSQL database's tables as the copy sees them, read from pg_catalog in the current schema:
// columns with their kind, the primary key in key order, the tables its foreign keys reference,
// the identity columns and their sequences. xpay_migrations is the version's bookkeeping, not data.
import type { SQL } from "bun";
import { type ColumnKind, CopyError, type ForeignKey, type TableShape } from "./types.ts";

export const BOOKKEEPING = "xpay_migrations";

function kindOf(table: string, column: string, type: string): ColumnKind {
  if (type === "bigint" || type === "integer" || type === "smallint") return "integer";
  if (type === "text" || type.startsWith("character")) return "text";
  if (type === "bytea") return "blob";
  throw new CopyError(`table ${table}, column ${column}: type ${type} is not one db copy carries (integer, text, blob)`);
}

export async function pgTableNames(sql: SQL): Promise<string[]> {
  const rows = (await sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> ${BOOKKEEPING} ORDER BY tablename`) as { tablename: string }[];
  return rows.map((r) => r.tablename);
}

export async function pgShapes(sql: SQL): Promise<TableShape[]> {
  const columns = (await sql`
    SELECT c.relname AS t, a.attname AS col, format_type(a.atttypid, NULL) AS type
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
    WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> ${BOOKKEEPING} AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY c.relname, a.attnum`) as { t: string; col: string; type: string }[];
  const keys = (await sql`
    SELECT c.relname AS t, a.attname AS col
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS u(attnum, pos)
    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum
    WHERE n.nspname = current_schema() AND k.contype = 'p'
    ORDER BY c.relname, u.pos`) as { t: string; col: string }[];
  const refs = (await sql`
    SELECT DISTINCT c.relname AS t, p.relname AS parent
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND k.contype = 'f'`) as { t: string; parent: string }[];
  const fkColumns = (await sql`
    SELECT k.oid AS id, c.relname AS t, p.relname AS parent, a.attname AS col, pa.attname AS parent_col
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    CROSS JOIN LATERAL unnest(k.conkey, k.confkey) WITH ORDINALITY AS u(attnum, parent_attnum, pos)
    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum
    JOIN pg_attribute pa ON pa.attrelid = k.confrelid AND pa.attnum = u.parent_attnum
    WHERE n.nspname = current_schema() AND k.contype = 'f'
    ORDER BY k.oid, u.pos`) as { id: unknown; t: string; parent: string; col: string; parent_col: string }[];
  const shapes = new Map<string, TableShape>();
  for (const r of columns) {
    const s = shapes.get(r.t) ?? { name: r.t, columns: [], key: [], parents: [], refs: [] };
    s.columns.push({ name: r.col, kind: kindOf(r.t, r.col, r.type) });
    shapes.set(r.t, s);
  }
  for (const r of keys) shapes.get(r.t)?.key.push(r.col);
  for (const r of refs) if (r.parent !== r.t) shapes.get(r.t)?.parents.push(r.parent);
  const foreign = new Map<string, ForeignKey & { table: string }>();
  for (const r of fkColumns) {
    const k = foreign.get(String(r.id)) ?? { table: r.t, columns: [], parent: r.parent, parentColumns: [] };
    k.columns.push(r.col);
    k.parentColumns.push(r.parent_col);
    foreign.set(String(r.id), k);
  }
  for (const { table, ...k } of foreign.values()) shapes.get(table)?.refs.push(k);
  return [...shapes.values()];
}

export interface Identity {
  table: string;
  column: string;
  /** The sequence's name, schema-qualified and quoted as PostgreSQL prints it. */
  sequence: string;
}

export async function pgIdentities(sql: SQL): Promise<Identity[]> {
  return (await sql`
    SELECT c.relname AS "table", a.attname AS "column", pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS sequence
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
      AND (a.attidentity <> '' OR pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL)
    ORDER BY 1`) as Identity[];
}

/** Sequences no column owns (the round-robin stamp's): each needs its own rule after a copy. */
export async function pgFreeSequences(sql: SQL): Promise<string[]> {
  const rows = (await sql`
    SELECT s.relname AS name FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
    WHERE s.relkind = 'S' AND n.nspname = current_schema()
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.deptype IN ('a', 'i'))
    ORDER BY 1`) as { name: string }[];
  return rows.map((r) => r.name);
}
