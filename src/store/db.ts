import { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, openSync } from "node:fs";

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
  return db;
}
