// Which tables a copy writes and in what order. Both databases are at the same schema version, so
// their tables and columns must be the same; a difference means a schema this binary does not
// describe (a hand-made table, a failed migration) and the copy stops before writing. The order
// puts every referenced table before the tables referencing it, so each row's foreign keys find
// their rows already there (PostgreSQL checks each statement; its constraints are not deferrable).
import { CopyError, type TableShape } from "./types.ts";

function columnsOf(t: TableShape): string {
  return t.columns.map((c) => `${c.name}:${c.kind}`).sort().join(",");
}

/** Tables only PostgreSQL has: the income rollup's pending rows (migration 039), which SQLite has no use for. */
export const POSTGRES_ONLY_TABLES = new Set(["order_rollup_pending"]);

/**
 * Tables only SQLite has: the key its new orders' numbers are made with (migration 041). A copy
 * writes every order under its public number (copy.ts), so the destination needs no other key
 * than the one its own migration draws.
 */
export const SQLITE_ONLY_TABLES = new Set(["order_number_key"]);

/**
 * Tables the destination derives from the copied rows itself: the income rollups (migration 025) are
 * kept by triggers on orders, so the destination's own inserts rebuild it (from exactly the orders
 * copied, test data left out included); copying its rows as well would count every order twice.
 * PostgreSQL's pending rows of the rollup (039) are part of it. The directory version (migration
 * 034) is moved by the destination's own triggers as the accounts and keyed clients are inserted;
 * its one row is the destination's migration's.
 */
export const DERIVED_TABLES = new Set(["order_rollup_day", "order_rollup_hour", "directory_version", ...POSTGRES_ONLY_TABLES, ...SQLITE_ONLY_TABLES]);

/** The source's tables in a foreign-key-safe order; refuses when the two schemas differ. */
export function planCopy(source: TableShape[], target: TableShape[]): TableShape[] {
  return planTables(
    source.filter((t) => !DERIVED_TABLES.has(t.name)),
    target.filter((t) => !DERIVED_TABLES.has(t.name)),
  );
}

function planTables(source: TableShape[], target: TableShape[]): TableShape[] {
  const byName = new Map(target.map((t) => [t.name, t]));
  const missing = source.filter((t) => !byName.has(t.name)).map((t) => t.name);
  const extra = target.filter((t) => !source.some((s) => s.name === t.name)).map((t) => t.name);
  if (missing.length || extra.length) {
    throw new CopyError(`the two schemas differ (${[...missing.map((n) => `only the source has ${n}`), ...extra.map((n) => `only the destination has ${n}`)].join("; ")}); nothing was copied`);
  }
  for (const s of source) {
    const t = byName.get(s.name)!;
    if (columnsOf(s) !== columnsOf(t)) throw new CopyError(`table ${s.name} has other columns in the destination than in the source; nothing was copied`);
    if (s.key.length === 0) throw new CopyError(`table ${s.name} has no primary key, which db copy reads it by; nothing was copied`);
  }
  return order(source, byName);
}

function order(tables: TableShape[], target: Map<string, TableShape>): TableShape[] {
  const done = new Set<string>();
  const out: TableShape[] = [];
  const pending = [...tables].sort((a, b) => a.name.localeCompare(b.name));
  while (pending.length > 0) {
    // The destination's foreign keys are the ones its inserts must satisfy.
    const i = pending.findIndex((t) => target.get(t.name)!.parents.every((p) => done.has(p) || !target.has(p)));
    if (i < 0) throw new CopyError(`foreign keys form a cycle among ${pending.map((t) => t.name).join(", ")}; db copy cannot order them`);
    const [next] = pending.splice(i, 1);
    out.push(next!);
    done.add(next!.name);
  }
  return out;
}
