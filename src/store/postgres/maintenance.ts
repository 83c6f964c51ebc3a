// The health probe, and the backup answer on PostgreSQL.

import type { SQL } from "bun";

/** Proves the database accepts writes (a read-only replica, a full disk or a lost server fails here). */
export async function probeWrite(sql: SQL): Promise<void> {
  await sql`INSERT INTO settings (key, value) VALUES ('health_probe', ${String(Date.now())}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
}

/**
 * `xpay backup` writes a SQLite file. A PostgreSQL database is backed up with the server's own
 * tools, which an operator of PostgreSQL already runs (and which copy a live database consistently).
 */
export const BACKUP_ON_POSTGRES =
  "xpay backup copies a SQLite database; this one is on PostgreSQL: back it up with pg_dump (e.g. pg_dump --format=custom --file=xpay-$(date +%F).dump \"$XPAY_DB\") or your server's own backups";

export async function backupTo(): Promise<void> {
  throw new Error(BACKUP_ON_POSTGRES);
}
