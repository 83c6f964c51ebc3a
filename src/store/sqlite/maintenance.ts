import type { Database } from "bun:sqlite";
import { existsSync } from "node:fs";

/** Proves the database accepts writes (a full disk or a read-only file fails here). */
export function probeWrite(db: Database): void {
  db.query("INSERT INTO settings (key, value) VALUES ('health_probe', $v) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run({ v: String(Date.now()) });
}

/** A consistent online copy: VACUUM INTO reads one snapshot while the server keeps writing. */
export function backupTo(db: Database, path: string): void {
  if (existsSync(path)) throw new Error(`${path} exists already; choose a new file name`);
  db.query("VACUUM INTO $path").run({ path });
}
