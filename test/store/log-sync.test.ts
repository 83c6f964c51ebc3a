// The write-ahead log's flush between checkpoints (src/store/sqlite/log-sync.ts) and the thread's
// two clocks (checkpoint-worker.ts): the log is flushed every syncMs, copied every copyMs.
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readlinkSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { logSync } from "../../src/store/sqlite/log-sync.ts";
import { startCheckpointer } from "../../src/store/sqlite/checkpointer.ts";
import { tempDir } from "../helpers.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function dir() {
  const d = tempDir();
  dirs.push(d);
  return d;
}

/** What this process's open descriptors name, among the files under `d`. */
function openUnder(d: string): string[] {
  const names: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(d)) names.push(target.slice(d.length + 1));
    } catch {
      // the descriptor readdir itself used, closed by now
    }
  }
  return names.sort();
}

test("no log file: nothing to flush, nothing opened", () => {
  const d = dir();
  const s = logSync(join(d, "x.db"));
  expect(s.sync()).toBe(false);
  expect(openUnder(d)).toEqual([]);
});

test("the flush keeps one descriptor on the log and follows the file when it is made again", () => {
  const d = dir();
  const db = join(d, "x.db");
  writeFileSync(`${db}-wal`, "first");
  const s = logSync(db);
  expect(s.sync()).toBe(true);
  expect(s.sync()).toBe(true);
  expect(openUnder(d)).toEqual(["x.db-wal"]);
  // Another file under the same name: the descriptor on the old one (now deleted) is closed.
  writeFileSync(join(d, "new"), "second");
  renameSync(join(d, "new"), `${db}-wal`);
  expect(openUnder(d)).toEqual(["x.db-wal (deleted)"]);
  expect(s.sync()).toBe(true);
  expect(openUnder(d)).toEqual(["x.db-wal"]);
  // The log removed: the descriptor goes with it.
  rmSync(`${db}-wal`);
  expect(s.sync()).toBe(false);
  expect(openUnder(d)).toEqual([]);
  writeFileSync(`${db}-wal`, "third");
  expect(s.sync()).toBe(true);
  s.close();
  expect(openUnder(d)).toEqual([]);
});

/** A new database with the checkpoint thread on it, its beats kept. */
function watched(syncMs: number, copyMs: number) {
  const db = openDatabase(join(dir(), "ck.db"));
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  const beats: { syncs: number; copies: number }[] = [];
  const ck = startCheckpointer(db, { syncMs, copyMs, onBeat: (b) => beats.push(b) });
  return { db, beats, ck };
}

test("the thread flushes the log between its checkpoints, and copies it every copyMs", async () => {
  const started = performance.now();
  const { db, beats, ck } = watched(5, 100);
  const insert = db.query("INSERT INTO t (v) VALUES ('x')");
  const end = Date.now() + 2300;
  while (Date.now() < end) {
    insert.run();
    await Bun.sleep(2);
  }
  await ck.stop();
  const ms = performance.now() - started;
  db.close();
  const last = beats.at(-1)!;
  // About 20 ticks a copy over two seconds; a loaded machine runs fewer ticks, not fewer flushes per copy.
  // At most one copy a copyMs from the start to the stop (a slow stop runs longer: bounded by its
  // measured time, not the loop's), one at the start and one at the stop.
  expect(beats.length).toBeGreaterThanOrEqual(2);
  expect(last.copies).toBeGreaterThanOrEqual(5);
  expect(last.copies).toBeLessThanOrEqual(Math.ceil(ms / 100) + 2);
  expect(last.syncs).toBeGreaterThan(last.copies * 3);
});

test("syncMs as long as copyMs: every tick copies, as before the two clocks", async () => {
  const { db, beats, ck } = watched(20, 20);
  await Bun.sleep(1200);
  await ck.stop();
  db.close();
  expect(beats.length).toBeGreaterThanOrEqual(2);
  expect(beats.at(-1)!.syncs).toBe(0);
  expect(beats.at(-1)!.copies).toBeGreaterThanOrEqual(20);
});
