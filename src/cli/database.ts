// Which database file a command means, and how it may open it. A mistyped --db used to create an
// empty database silently (and `merchant add` then wrote the merchant into it); now only `serve`
// and `migrate` create one, read-only commands open the file read-only (so a read-only copy can
// still be inspected), and nothing writes to a schema newer than this binary.
import { Database } from "bun:sqlite";
import { accessSync, closeSync, constants as fs, existsSync, openSync, readSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import pkg from "../../package.json";
import { isWritable, openDatabase, openDatabaseReadOnly } from "../store/db.ts";
import { currentVersion, LATEST_VERSION, migrate, SchemaTooNewError } from "../store/migrate.ts";
import { CliError } from "./errors.ts";

/** create: may make a new file; write: an existing one, read-write; read: an existing one, read-only. */
export type DbAccess = "create" | "write" | "read";

const CREATORS = new Set(["serve", "migrate"]);
/** Commands that never write: they work on a read-only file (a copy, another user's file). */
const READERS = new Set([
  "merchant list", "merchant show", "channel list", "channel slots", "order inspect", "order list", "notify list", "notify show", "report list", "client list",
  "settings list", "settings get", "migrate --status", "backup",
  "stats", "rules list", "rules test", "rules unparsed",
  "admin list", "admin sessions", "audit list",
  "alert list", "alert history",
]);

/** A reader's option that writes after all: showing the AppSecret is audited (core/clients/setup.ts). */
const WRITING_OPTIONS: Readonly<Record<string, string>> = { "merchant show": "showSecret" };

/** Every other command (and any new one) needs an existing database it can write. */
export function accessOf(command: string, options: Record<string, unknown> = {}): DbAccess {
  if (CREATORS.has(command)) return "create";
  const writes = WRITING_OPTIONS[command];
  return READERS.has(command) && !(writes !== undefined && options[writes]) ? "read" : "write";
}

/** --db, else XPAY_DB, else ./xpay.db; an empty value is a mistake (bun:sqlite would open a temporary database). */
export function chooseDbPath(flag: string | undefined, env: string | undefined): string {
  if (flag !== undefined && flag.trim() === "") throw new CliError('--db is empty; give the database file, e.g. --db /var/lib/xpay/xpay.db');
  if (flag === undefined && env !== undefined && env.trim() === "") throw new CliError("XPAY_DB is set but empty; set it to the database file (export XPAY_DB=/var/lib/xpay/xpay.db) or unset it for ./xpay.db");
  return flag ?? env ?? "./xpay.db";
}

export const missingMessage = (path: string, why = "") =>
  `no database at ${path}${why}; set --db or XPAY_DB, or run \`xpay serve\` (or \`xpay migrate\`) to create one`;

/** Refuses a path that holds no database (unless the command creates one), a folder, or another kind of file. */
function checkFile(path: string, access: DbAccess): void {
  if (!existsSync(path)) {
    if (access !== "create") throw new CliError(missingMessage(path));
    const folder = dirname(resolve(path));
    if (!existsSync(folder)) throw new CliError(`cannot open database ${path}: folder ${folder} does not exist; create it first`);
    return;
  }
  const st = statSync(path);
  if (st.isDirectory()) throw new CliError(`${path} is a folder, not a database file; give the file, e.g. --db ${path.replace(/\/+$/, "")}/xpay.db`);
  if (st.size === 0) {
    if (access !== "create") throw new CliError(missingMessage(path, " (the file is empty)"));
    return;
  }
  const head = Buffer.alloc(16);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new CliError(`cannot read database ${path}: ${(e as { code?: string }).code === "EACCES" ? `permission denied; run xpay as the user that owns it (uid ${st.uid})` : String(e)}`);
  }
  readSync(fd, head, 0, 16, 0);
  closeSync(fd);
  if (head.toString("latin1") !== "SQLite format 3\0") throw new CliError(`${path} is not a SQLite database; check --db or XPAY_DB`);
}

/** A SQLite file with tables but no xpay schema version: xpay must not add its tables to it. */
function refuseForeign(db: Database, path: string): void {
  if (currentVersion(db) > 0) return;
  const tables = (db.query("SELECT count(*) AS n FROM sqlite_master").get() as { n: number }).n;
  if (tables > 0) throw new CliError(`${path} is a SQLite database of another application (no xpay schema); check --db or XPAY_DB`);
}

export function tooNewMessage(path: string, found: number): string {
  return `database ${path} has schema version ${found}, newer than this xpay ${pkg.version} knows (${LATEST_VERSION}): a newer xpay upgraded it; run that version (or restore a backup made before the upgrade); this one will not write to it`;
}

/** Applies the pending migrations; refuses a schema newer than this binary. */
export function migrateOrRefuse(db: Database, path: string): number[] {
  try {
    return migrate(db);
  } catch (e) {
    if (e instanceof SchemaTooNewError) throw new CliError(tooNewMessage(path, e.found));
    throw e;
  }
}

function readOnlyWhy(path: string): string {
  const denied = (p: string) => {
    try {
      accessSync(p, fs.W_OK);
      return null;
    } catch (e) {
      return (e as { code?: string }).code ?? "EACCES";
    }
  };
  const file = denied(path);
  if (file === "EROFS") return "read-only file system";
  if (file) {
    const st = statSync(path);
    return `file mode ${(st.mode & 0o777).toString(8).padStart(4, "0")}, owner uid ${st.uid}`;
  }
  return `folder ${dirname(resolve(path))} is not writable, and SQLite keeps its -wal and -shm files there`;
}

/**
 * Opens `path` for a command of the given access. An existing file is looked at read-only first,
 * so a file of another application or of a newer xpay is refused before anything (not even the
 * WAL switch) is written to it. Read-only commands keep that read-only handle; on a schema older
 * than this binary they read an upgraded copy in memory: a reader never writes, so a new binary's
 * `order list` does not migrate the file under a server of the old one. Writers migrate it.
 * `upgrade: false` leaves the schema as it is (`migrate` applies it itself; `backup` copies as is).
 */
export function openFor(path: string, access: DbAccess, o: { upgrade?: boolean } = {}): Database {
  const upgrade = o.upgrade ?? true;
  checkFile(path, access);
  if (existsSync(path) && statSync(path).size > 0) {
    const probe = openOrExplain(path, () => openDatabaseReadOnly(path));
    let version: number;
    try {
      refuseForeign(probe, path);
      version = currentVersion(probe);
    } catch (e) {
      probe.close();
      throw e instanceof CliError ? e : new CliError(`cannot read database ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (access === "read" && (!upgrade || version >= LATEST_VERSION)) return probe;
    probe.close();
    if (access === "read") return upgradedCopy(path); // an older schema
    if (version > LATEST_VERSION) throw new CliError(tooNewMessage(path, version));
    if (!isWritable(path)) {
      throw new CliError(`database ${path} is read-only here (${readOnlyWhy(path)}) and this command writes to it: give this user write access to the file and its folder, or only read (list, show, inspect, get)`);
    }
  }
  const db = openOrExplain(path, () => openDatabase(path));
  try {
    refuseForeign(db, path);
    if (upgrade) migrateOrRefuse(db, path);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/**
 * An older schema, for a reading command: the whole database (write-ahead log included, as SQLite
 * serializes it) is copied into memory and upgraded there, so this binary's queries work on it and
 * the file stays as it is (a read-only backup, another user's file, a server of the old version).
 */
function upgradedCopy(path: string): Database {
  const source = openDatabaseReadOnly(path);
  let bytes: Uint8Array;
  try {
    bytes = source.serialize();
  } finally {
    source.close();
  }
  bytes[18] = bytes[19] = 1; // "rollback journal": an in-memory copy has no -shm for WAL
  const copy = Database.deserialize(bytes, { strict: true });
  try {
    migrateOrRefuse(copy, path);
  } catch (e) {
    copy.close();
    throw e;
  }
  copy.exec("PRAGMA query_only = ON");
  return copy;
}

function openOrExplain(path: string, open: () => Database): Database {
  try {
    return open();
  } catch (e) {
    throw new CliError(`cannot open database ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
