import type { Database } from "bun:sqlite";
import { MIGRATIONS, type Migration } from "./migrations/index.ts";
import { ensureOrderKeys } from "./sqlite/order-keys.ts";

export interface MigrationState {
  version: number;
  name: string;
  applied: boolean;
}

/** The newest schema this binary knows; a file above it was written by a newer xpay. */
export const LATEST_VERSION = MIGRATIONS.at(-1)!.version;

/**
 * Thrown instead of touching a schema newer than this binary (an older xpay started on a file a
 * newer one upgraded): its code would write rows the newer schema's rules no longer expect.
 */
export class SchemaTooNewError extends Error {
  constructor(readonly found: number, readonly known: number) {
    super(`schema version ${found} is newer than this xpay knows (${known})`);
  }
}

export function currentVersion(db: Database): number {
  const row = db.query<{ user_version: number }, []>("PRAGMA user_version").get();
  return row?.user_version ?? 0;
}

export function migrationStatus(db: Database, all: Migration[] = MIGRATIONS): MigrationState[] {
  const v = currentVersion(db);
  return all.map((m) => ({ version: m.version, name: m.name, applied: m.version <= v }));
}

/** Applies pending migrations, each in its own transaction; returns the versions applied. */
export function migrate(db: Database, all: Migration[] = MIGRATIONS): number[] {
  const known = all.at(-1)?.version ?? 0;
  if (currentVersion(db) > known) throw new SchemaTooNewError(currentVersion(db), known);
  const applied: number[] = [];
  for (const m of all) {
    if (m.version <= currentVersion(db)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
    }).immediate();
    applied.push(m.version);
  }
  // 041's one row: its key is drawn here, by node:crypto (src/store/sqlite/order-keys.ts).
  if (currentVersion(db) >= 41) ensureOrderKeys(db);
  return applied;
}

export function pendingMigrations(db: Database, all: Migration[] = MIGRATIONS): Migration[] {
  const v = currentVersion(db);
  return all.filter((m) => m.version > v);
}
