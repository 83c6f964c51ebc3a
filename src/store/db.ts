import { Database } from "bun:sqlite";
import { accessSync, chmodSync, closeSync, constants as fs, existsSync, openSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Opens the database the way every part of xpay expects it: WAL so readers never wait for the
 * writer, a busy timeout so the CLI and the server share the file, and enforced foreign keys.
 * A new file is created with mode 0600: it holds merchant secrets and the platform private key.
 */
export function openDatabase(path: string): Database {
  if (path !== ":memory:" && !existsSync(path)) {
    closeSync(openSync(path, "a", 0o600));
    chmodSync(path, 0o600);
  }
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  // Each create of a group commit runs in its own savepoint, whose statement journal (a copy of
  // every page it touches) spills to a temp file past 64 KiB. The stats and order-list indexes
  // (migrations 010, 011) pushed a create past that, and the temp file's syscalls took a fifth of
  // its CPU time (bench/console-indexes.ts). In memory it costs a create ~50 KiB for a moment.
  db.exec("PRAGMA temp_store = MEMORY");
  return db;
}

/** True when this process may write the file and create its -wal and -shm beside it. */
export function isWritable(path: string): boolean {
  try {
    accessSync(path, fs.W_OK);
    accessSync(dirname(resolve(path)), fs.W_OK);
    return true;
  } catch {
    return false;
  }
}

const walSize = (path: string) => {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
};

/**
 * Opens an existing database for reading only; nothing can be written through it.
 * - A file this process may write: a normal connection under `PRAGMA query_only`, which refuses
 *   every write; as the last connection to close it still removes the -wal and -shm files (a
 *   `readonly` connection would leave them behind after every `xpay order list`).
 * - Otherwise SQLite's read-only mode, which reads the write-ahead log through an existing -shm.
 *   It cannot create a -shm in a folder this process may not write: there, when no log holds
 *   commits the main file lacks, the main file is the whole database and is read into memory as
 *   one snapshot (bun:sqlite has no `immutable=1` URI together with strict binding).
 */
export function openDatabaseReadOnly(path: string): Database {
  let db: Database;
  if (isWritable(path)) {
    db = new Database(path, { readwrite: true, strict: true });
    db.exec("PRAGMA query_only = ON");
  } else if (walSize(path) === 0) {
    const bytes = readFileSync(path);
    bytes[18] = bytes[19] = 1; // the copy's header says "rollback journal": a WAL header needs a -shm
    return Database.deserialize(bytes, { readonly: true, strict: true });
  } else {
    db = new Database(path, { readonly: true, strict: true });
  }
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
}
