// `xpay restore FILE`: a backup back into service. The file is checked first (a SQLite file of
// xpay, a schema this binary knows, PRAGMA integrity_check), so a damaged or foreign file never
// replaces anything. The target is --db / XPAY_DB: a missing or empty path, or with --force an
// existing database, which is moved aside (with its -wal and -shm, so it stays a whole database),
// never deleted. Never under a running serve: the servers on a database keep their list in it
// (server/instances.ts: pid, host, a heartbeat), and a live entry refuses the restore.
// A PostgreSQL target is an empty database the backup is copied into (the copier of `xpay db copy`).
import type { Database } from "bun:sqlite";
import { existsSync, renameSync, statSync, unlinkSync } from "node:fs";
import type { Command } from "commander";
import pc from "picocolors";
import { formatLocal } from "../core/time.ts";
import { INSTANCES_KEY, type Instance, liveInstances } from "../server/instances.ts";
import { openDatabaseReadOnly } from "../store/db.ts";
import { currentVersion, LATEST_VERSION } from "../store/migrate.ts";
import { peekSetting } from "../store/postgres/peek.ts";
import { describePostgresUrl, isPostgresUrl } from "../store/postgres/url.ts";
import { backupTo, storedSetting } from "../store/sqlite/maintenance.ts";
import { type Cli, CliError, printJson } from "./context.ts";
import { openFor } from "./database.ts";
import { copyOrExplain, sameDatabase } from "./db-copy.ts";
import { examples } from "./help.ts";

/** The backup, open read-only, after every check; its schema version. */
export function checkBackup(file: string): { db: Database; version: number } {
  if (!existsSync(file)) throw new CliError(`no backup at ${file}; give the file xpay backup wrote`);
  let db: Database;
  try {
    db = openFor(file, "read", { upgrade: false });
  } catch (e) {
    throw new CliError(`${file} cannot be restored: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    const version = currentVersion(db);
    if (version === 0) throw new CliError(`${file} is not an xpay database (no xpay schema); nothing restored`);
    if (version > LATEST_VERSION) throw new CliError(`${file} has schema version ${version}, newer than this xpay knows (${LATEST_VERSION}); restore it with the xpay that wrote it`);
    const rows = db.query("PRAGMA integrity_check").all() as { integrity_check: string }[];
    const found = rows.map((r) => r.integrity_check);
    if (found.join() !== "ok") throw new CliError(`${file} is damaged (integrity check: ${found.slice(0, 3).join("; ")}); nothing restored: take an older backup`);
    return { db, version };
  } catch (e) {
    db.close();
    if (e instanceof CliError) throw e;
    // SQLite gives up on some damage before integrity_check can list it.
    throw new CliError(`${file} is damaged (integrity check: ${e instanceof Error ? e.message : String(e)}); nothing restored: take an older backup`);
  }
}

/** One line naming the server that runs on the target, and what to do. */
function refuseLive(where: string, live: Instance[]): void {
  if (live.length === 0) return;
  const i = live[0]!;
  throw new CliError(`xpay serve runs on ${where} (pid ${i.pid} on ${i.host}, port ${i.port}, started ${formatLocal(i.started)}): stop it first (sudo systemctl stop xpay), then restore; nothing restored`);
}

/** The servers a SQLite file lists as running; none when the file cannot be read (a damaged one). */
function liveOnFile(path: string): Instance[] {
  try {
    const db = openDatabaseReadOnly(path);
    try {
      return liveInstances(storedSetting(db, INSTANCES_KEY));
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");

/** Moves the database and its -wal/-shm aside under one suffix; the main file's new name (or null). */
function moveAside(target: string, now: number): string | null {
  const aside = `${target}.before-restore-${stamp(now)}`;
  let moved: string | null = null;
  for (const ext of ["", "-wal", "-shm"]) {
    if (!existsSync(target + ext)) continue;
    renameSync(target + ext, aside + ext);
    if (ext === "") moved = aside;
  }
  return moved;
}

async function restoreIntoFile(file: string, target: string, force: boolean): Promise<{ aside: string | null; version: number }> {
  if (sameDatabase(file, target)) throw new CliError(`the backup and the target are the same file (${target}); give the database to restore into with --db`);
  const exists = existsSync(target) && statSync(target).size > 0;
  if (exists) refuseLive(target, liveOnFile(target));
  if (exists && !force) throw new CliError(`${target} holds a database already; restore into a new path (--db NEW), or add --force to replace it (it is kept as ${target}.before-restore-<time>)`);
  const { db, version } = checkBackup(file);
  try {
    const aside = moveAside(target, Date.now());
    if (aside === null && existsSync(target)) unlinkSync(target); // an empty file
    backupTo(db, target); // VACUUM INTO a 0600 file beside it, linked into place
    return { aside, version };
  } finally {
    db.close();
  }
}

export function register(program: Command, cli: Cli): void {
  program
    .command("restore <file>")
    .description("put a backup back: checks the file (xpay schema, integrity), then writes it to --db / XPAY_DB (a new path, or --force to replace; never while serve runs on it); into PostgreSQL: an empty database")
    .option("--force", "replace an existing database (moved aside to <db>.before-restore-<time>, not deleted)")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      examples(
        "xpay restore /var/backups/xpay/xpay-2026-11-23T031500Z.db --force   # after sudo systemctl stop xpay",
        "xpay --db ./look.db restore /var/backups/xpay/xpay-2026-11-23T031500Z.db   # a new file to inspect",
        "xpay --db postgres://xpay@127.0.0.1/xpay_restored restore backup.db   # an empty PostgreSQL database",
      ),
    )
    .action(async (file: string, o: { force?: boolean; json?: boolean }) => {
      const target = cli.dbPath();
      if (isPostgresUrl(target)) return restoreIntoPostgres(file, target, o);
      const r = await restoreIntoFile(file, target, o.force === true);
      if (o.json) return printJson({ restored: file, to: target, version: r.version, moved_aside: r.aside });
      console.log(`${pc.green("restored")} ${file} -> ${target} ${pc.dim(`(schema version ${r.version}, mode 0600; serve applies newer migrations when it starts)`)}`);
      if (r.aside) console.log(`${pc.dim("the database it replaced is kept as")} ${r.aside}`);
    });
}

async function restoreIntoPostgres(file: string, url: string, o: { force?: boolean; json?: boolean }): Promise<void> {
  const where = describePostgresUrl(url);
  if (o.force) throw new CliError(`--force does not apply to PostgreSQL: a restore goes into an empty database only; create one (createdb xpay_restored) and restore into it`);
  checkBackup(file).db.close();
  refuseLive(where, liveInstances((await peekSetting(url, INSTANCES_KEY)).value));
  const result = await copyOrExplain(file, url);
  const rows = result.tables.reduce((a, t) => a + t.rows, 0);
  if (o.json) return printJson({ restored: file, to: where, version: result.version, rows, verified: true });
  console.log(`${pc.green("restored")} ${file} -> ${where} ${pc.dim(`(schema version ${result.version}, ${rows} rows, counts verified; the copy of xpay db copy)`)}`);
}
