// A SQLite database's tables as the copy sees them, read from its own catalog: columns with their
// kind, the primary key in key order, the tables its foreign keys reference. SQLite's own tables
// (sqlite_sequence, sqlite_stat1) are bookkeeping, not data; the schema version is PRAGMA
// user_version, not a table.
import type { Database } from "bun:sqlite";
import { type ColumnKind, CopyError, type ForeignKey, type TableShape } from "./types.ts";
import { quote } from "./values.ts";

/** SQLite's type affinity rules (datatype3.html 3.1), narrowed to the kinds a copy carries. */
function kindOf(table: string, column: string, declared: string): ColumnKind {
  const t = declared.toUpperCase();
  if (t.includes("INT")) return "integer";
  if (t.includes("CHAR") || t.includes("CLOB") || t.includes("TEXT")) return "text";
  if (t === "" || t.includes("BLOB")) return "blob";
  throw new CopyError(`table ${table}, column ${column}: type ${declared} is not one db copy carries (integer, text, blob)`);
}

export function sqliteTableNames(db: Database): string[] {
  const rows = db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").all() as { name: string }[];
  return rows.map((r) => r.name);
}

export function sqliteShapes(db: Database): TableShape[] {
  return sqliteTableNames(db).map((name) => {
    const info = db.query(`PRAGMA table_info(${quote(name)})`).all() as { name: string; type: string; pk: number }[];
    const fks = db.query(`PRAGMA foreign_key_list(${quote(name)})`).all() as { id: number; seq: number; table: string; from: string; to: string }[];
    return {
      name,
      columns: info.map((c) => ({ name: c.name, kind: kindOf(name, c.name, c.type) })),
      key: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      parents: [...new Set(fks.map((f) => f.table))].filter((t) => t !== name),
      refs: foreignKeys(fks),
    };
  });
}

/** PRAGMA foreign_key_list gives one row per column of each key (id), in key order (seq). */
function foreignKeys(rows: { id: number; seq: number; table: string; from: string; to: string }[]): ForeignKey[] {
  const byId = new Map<number, ForeignKey>();
  for (const r of [...rows].sort((a, b) => a.id - b.id || a.seq - b.seq)) {
    const k = byId.get(r.id) ?? { columns: [], parent: r.table, parentColumns: [] };
    k.columns.push(r.from);
    k.parentColumns.push(r.to);
    byId.set(r.id, k);
  }
  return [...byId.values()];
}

/** Tables whose ids SQLite keeps in sqlite_sequence (INTEGER PRIMARY KEY AUTOINCREMENT). */
export function autoincrementTables(db: Database): Set<string> {
  const rows = db.query("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL").all() as { name: string; sql: string }[];
  return new Set(rows.filter((r) => /\bAUTOINCREMENT\b/i.test(r.sql)).map((r) => r.name));
}

export function hasSequenceTable(db: Database): boolean {
  return db.query("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() !== null;
}
