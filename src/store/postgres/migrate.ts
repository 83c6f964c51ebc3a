// The schema version of a PostgreSQL database and its migrations. The version lives in a table
// (SQLite keeps it in PRAGMA user_version); each migration is one transaction holding an advisory
// lock, so instances started together apply it once. A database a newer xpay upgraded is refused
// before anything is written, as on SQLite (SchemaTooNewError).
import type { SQL } from "bun";
import type { Migration } from "../migrations/index.ts";
import { SchemaTooNewError } from "../migrate.ts";
import { PG_MIGRATIONS } from "./migrations/index.ts";
import { Lock, lock } from "./tx.ts";

export const PG_LATEST_VERSION = PG_MIGRATIONS.at(-1)!.version;

/** The database holds tables but no xpay schema version: another application's database. */
export class ForeignDatabaseError extends Error {}

async function hasVersionTable(sql: SQL): Promise<boolean> {
  const [row] = await sql`SELECT to_regclass('xpay_migrations') IS NOT NULL AS present`;
  return row.present === true;
}

export async function pgCurrentVersion(sql: SQL): Promise<number> {
  if (!(await hasVersionTable(sql))) return 0;
  const [row] = await sql`SELECT COALESCE(MAX(version), 0) AS v FROM xpay_migrations`;
  return Number(row.v);
}

/**
 * Refuses a database with tables of its own and no xpay version: xpay must not add its tables to it.
 * One statement, so the two facts come from one look: read in two, an instance that committed the
 * first migration in between (several started at once) made the database look foreign. Writers
 * also check again under the migration lock (pgMigrate).
 */
export async function refuseForeign(sql: SQL): Promise<void> {
  const [row] = await sql`SELECT to_regclass('xpay_migrations') IS NOT NULL AS versioned, (SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()) AS n`;
  if (row.versioned !== true && Number(row.n) > 0) throw new ForeignDatabaseError("the database holds tables of another application (no xpay schema)");
}

export async function pgMigrationStatus(sql: SQL, all: Migration[] = PG_MIGRATIONS) {
  const v = await pgCurrentVersion(sql);
  return all.map((m) => ({ version: m.version, name: m.name, applied: m.version <= v }));
}

/** Applies the pending migrations, each in its own transaction; returns the versions applied. */
export async function pgMigrate(sql: SQL, all: Migration[] = PG_MIGRATIONS, now = () => Date.now()): Promise<number[]> {
  await refuseForeign(sql);
  const known = all.at(-1)?.version ?? 0;
  const applied: number[] = [];
  for (const m of all) {
    const done = await sql.begin(async (tx) => {
      await lock(tx, Lock.migrations);
      await refuseForeign(tx); // under the lock: another instance's first migration is committed or not begun
      await tx.unsafe("CREATE TABLE IF NOT EXISTS xpay_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
      const current = await pgCurrentVersion(tx);
      if (current > known) throw new SchemaTooNewError(current, known);
      if (m.version <= current) return false;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO xpay_migrations (version, name, applied_at) VALUES (${m.version}, ${m.name}, ${now()})`;
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}
