// The health probe (the backup is backup.ts).

import type { SQL } from "bun";

/** Proves the database accepts writes (a read-only replica, a full disk or a lost server fails here). */
export async function probeWrite(sql: SQL): Promise<void> {
  await sql`INSERT INTO settings (key, value) VALUES ('health_probe', ${String(Date.now())}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
}
