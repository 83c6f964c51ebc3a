import type { Database } from "bun:sqlite";
import { chmodSync, existsSync, linkSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** Proves the database accepts writes (a full disk or a read-only file fails here). */
export function probeWrite(db: Database): void {
  db.query("INSERT INTO settings (key, value) VALUES ('health_probe', $v) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run({ v: String(Date.now()) });
}

/** Why a backup cannot go to `path`, worded for the operator; null when it can. */
export function backupTargetProblem(path: string): string | null {
  if (path.trim() === "") return "the backup path is empty; name a new file, e.g. xpay backup /var/backups/xpay-$(date +%F).db";
  const folder = dirname(resolve(path));
  if (!existsSync(folder)) return `folder ${folder} does not exist; create it first`;
  if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
  if (existsSync(path)) return `${path} exists already; choose a new file name`;
  return null;
}

/**
 * A consistent online copy: VACUUM INTO reads one snapshot while the server keeps writing.
 * The copy holds every merchant secret and the platform private key, so it must never be readable
 * by others, not even for a moment. VACUUM INTO creates its file itself with the process umask
 * (usually 0644), so it writes into a fresh 0700 folder beside the target (same file system),
 * the file is made 0600 there, and only then is it linked under its final name. link() refuses
 * to replace a file that appeared meanwhile, where rename() would silently overwrite it.
 */
export function backupTo(db: Database, path: string): void {
  const problem = backupTargetProblem(path);
  if (problem) throw new Error(problem);
  const target = resolve(path);
  const staging = mkdtempSync(join(dirname(target), `.${basename(target)}.tmp-`)); // mode 0700
  try {
    const tmp = join(staging, "backup.db");
    // A read-only command's connection runs under query_only, which refuses VACUUM INTO as well,
    // though it writes only the new file: lifted for this one statement.
    const queryOnly = (db.query("PRAGMA query_only").get() as { query_only: number }).query_only === 1;
    if (queryOnly) db.exec("PRAGMA query_only = OFF");
    try {
      db.query("VACUUM INTO $path").run({ path: tmp });
    } finally {
      if (queryOnly) db.exec("PRAGMA query_only = ON");
    }
    chmodSync(tmp, 0o600);
    try {
      linkSync(tmp, target);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "EEXIST") throw new Error(`${path} exists already; choose a new file name`);
      // File systems without hard links (some FUSE and SMB mounts): rename, after a last check.
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw e;
      if (existsSync(target)) throw new Error(`${path} exists already; choose a new file name`);
      renameSync(tmp, target);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** One stored setting, read before the async store exists (the CLI's time zone at open). */
export function storedSetting(db: Database, key: string): string | undefined {
  return (db.query("SELECT value FROM settings WHERE key = $key").get({ key }) as { value: string } | null)?.value;
}
