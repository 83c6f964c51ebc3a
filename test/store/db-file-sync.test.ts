// The database file's flush before a rewind (src/store/sqlite/db-file-sync.ts) uses a descriptor
// SQLite already holds and never opens or closes one: closing any descriptor of the file would drop
// this process's POSIX locks on it, SQLite's shared lock included.
import { afterEach, expect, test } from "bun:test";
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { dbFileSync } from "../../src/store/sqlite/db-file-sync.ts";
import { tempDir } from "../helpers.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function path() {
  const d = tempDir();
  dirs.push(d);
  return join(d, "x.db");
}

/** This process's descriptors on `file`. */
function descriptors(file: string): string[] {
  const found: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) found.push(fd);
    } catch {
      // the descriptor readdir itself used
    }
  }
  return found.sort();
}

/** The POSIX locks this process holds on `file` (/proc/locks names the inode). */
function locks(file: string): string[] {
  const ino = statSync(file).ino;
  return readFileSync("/proc/locks", "utf8")
    .split("\n")
    .filter((l) => l.includes(` ${process.pid} `) && l.split(/\s+/).some((f) => f.endsWith(`:${ino}`)));
}

test("flushes through SQLite's own descriptor: no descriptor opened or closed, SQLite's lock kept", () => {
  const file = path();
  const db = openDatabase(file);
  db.exec("CREATE TABLE t (v TEXT)");
  db.exec("INSERT INTO t VALUES ('x')");
  db.exec("PRAGMA wal_checkpoint(PASSIVE)"); // pages copied into the database file, not synced
  const before = { fds: descriptors(file), locks: locks(file) };
  expect(before.fds.length).toBeGreaterThan(0);
  expect(before.locks.length).toBeGreaterThan(0); // WAL mode: a shared lock on the database file
  expect(dbFileSync(file).sync()).toBe(true);
  expect(descriptors(file)).toEqual(before.fds);
  expect(locks(file)).toEqual(before.locks);
  // What the flush must never do: a descriptor of its own, closed, takes SQLite's lock with it.
  closeSync(openSync(file, "r"));
  expect(locks(file)).toEqual([]);
  db.close();
});

test("no connection on the file: nothing flushed, nothing opened", () => {
  const file = path();
  const db = openDatabase(file);
  db.close();
  const s = dbFileSync(file);
  expect(s.sync()).toBe(false);
  expect(descriptors(file)).toEqual([]);
  expect(dbFileSync(`${file}.missing`).sync()).toBe(false);
});
