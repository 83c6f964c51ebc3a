// `xpay backup FILE` on PostgreSQL: the same promise as on SQLite (a consistent online copy into a
// new file of mode 0600, safe while instances serve), written as a SQLite file by the copier of
// `xpay db copy` (store/copy): one REPEATABLE READ snapshot of every table. The file is an exact
// copy (no `db.copy` audit entry); `xpay db copy --from FILE --to URL` restores it into an empty
// database. For very large databases the server's own tools (pg_dump) remain the better choice.
import { Database } from "bun:sqlite";
import { chmodSync, closeSync, linkSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { copyDatabase } from "../copy/copy.ts";
import { pgSource } from "../copy/pg-source.ts";
import { sqliteTarget } from "../copy/sqlite-target.ts";
import { backupTargetProblem } from "../sqlite/maintenance.ts";

export async function backupToSqlite(url: string, path: string): Promise<void> {
  const problem = backupTargetProblem(path);
  if (problem) throw new Error(problem);
  const target = resolve(path);
  // Written in a fresh 0700 folder beside the target, made 0600, then linked under its name: never
  // readable by others, and link() refuses a file that appeared meanwhile (as the SQLite backup).
  const staging = mkdtempSync(join(dirname(target), `.${basename(target)}.tmp-`));
  const source = pgSource(url);
  try {
    const tmp = join(staging, "backup.db");
    await copyDatabase(source, () => {
      // A plain rollback-journal file, like SQLite's VACUUM INTO backup: one file, nothing beside it.
      closeSync(openSync(tmp, "a", 0o600));
      chmodSync(tmp, 0o600);
      const db = new Database(tmp, { strict: true });
      db.exec("PRAGMA foreign_keys = ON");
      return sqliteTarget(db, path);
    }, { audit: false });
    try {
      linkSync(tmp, target);
    } catch (e) {
      if ((e as { code?: string }).code === "EEXIST") throw new Error(`${path} exists already; choose a new file name`);
      throw e;
    }
  } finally {
    await source.close();
    rmSync(staging, { recursive: true, force: true });
  }
}
