// The WAL checkpoint thread: while it runs, pages reach the database file without the writer's
// own (much later) automatic checkpoint; stopping it gives the writer its default back.
import { afterEach, expect, test } from "bun:test";
import { closeSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { startCheckpointer } from "../../src/store/sqlite/checkpointer.ts";
import { tempDir } from "../helpers.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function freshDb() {
  const dir = tempDir();
  dirs.push(dir);
  const path = join(dir, "ck.db");
  const db = openDatabase(path);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return { db, path };
}

const autocheckpoint = (db: ReturnType<typeof openDatabase>) => (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

function writePages(db: ReturnType<typeof openDatabase>, rows: number) {
  const insert = db.query("INSERT INTO t (v) VALUES ($v)");
  for (let i = 0; i < rows; i += 50) db.transaction(() => { for (let j = 0; j < 50; j++) insert.run({ v: "x".repeat(1000) }); })();
}

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await Bun.sleep(10);
  return check();
}

test("the thread copies WAL pages into the database file while the writer goes on", async () => {
  const { db, path } = freshDb();
  const before = statSync(path).size;
  let beats = 0;
  const ck = startCheckpointer(db, { syncMs: 5, copyMs: 5, onBeat: () => beats++ });
  expect(autocheckpoint(db)).toBe(131_072); // the writer's own checkpoint waits for a much larger WAL
  writePages(db, 1000); // about 250 pages: far below the writer's threshold
  expect(await until(() => statSync(path).size > before + 500_000)).toBe(true);
  expect(await until(() => beats > 0)).toBe(true); // a message from the thread, delivered between turns
  await ck.stop();
  expect(autocheckpoint(db)).toBe(1000);
  db.close();
});

test("without the thread, the same writes stay in the WAL (what the test above relies on)", async () => {
  const { db, path } = freshDb();
  db.exec("PRAGMA wal_autocheckpoint = 131072");
  const before = statSync(path).size;
  writePages(db, 1000);
  await Bun.sleep(100);
  expect(statSync(path).size).toBe(before);
  db.close();
});

test("an in-memory database has nothing to checkpoint", async () => {
  const db = openDatabase(":memory:");
  const ck = startCheckpointer(db);
  expect(autocheckpoint(db)).toBe(1000);
  await ck.stop();
  db.close();
});

/** Times the log started over: each rewind draws a new salt into the -wal file's header. */
function walSalt(path: string): number {
  const fd = openSync(`${path}-wal`, "r");
  const b = Buffer.alloc(32);
  readSync(fd, b, 0, 32, 0);
  closeSync(fd);
  return b.readUInt32BE(16);
}

async function keepWriting(db: ReturnType<typeof openDatabase>, path: string, held: () => boolean, ms: number) {
  const salts = new Set<number>();
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!held()) writePages(db, 50);
    await new Promise((r) => setImmediate(r));
    salts.add(walSalt(path));
  }
  return { rewinds: salts.size - 1, walBytes: statSync(`${path}-wal`).size };
}

test("writes held between turns: the thread rewinds the log while commits keep coming; without the hold it seldom can", async () => {
  const run = async (hold: boolean) => {
    const { db, path } = freshDb();
    let held = false;
    let holds = 0;
    // The writer's own checkpoint (the safety valve) is out of the way: it rewinds the log too.
    const ck = startCheckpointer(db, {
      syncMs: 5, copyMs: 5, writerPages: 1_000_000, rewindPages: 500,
      ...(hold ? { hold: { pause: () => ((held = true), holds++), resume: () => (held = false) } } : {}),
    });
    const r = await keepWriting(db, path, () => held, 1500);
    await ck.stop();
    db.close();
    return { ...r, holds, heldAtEnd: held };
  };
  const withHold = await run(true);
  const without = await run(false);
  expect(withHold.holds).toBeGreaterThan(0);
  expect(withHold.heldAtEnd).toBe(false); // stopping lets the writes go
  expect(withHold.rewinds).toBeGreaterThanOrEqual(5);
  expect(without.holds).toBe(0);
  expect(without.rewinds * 3).toBeLessThanOrEqual(withHold.rewinds); // 0-4 here, against 13-24 with the hold
});

test("before each hold the thread flushes the database file and copies again, twice", async () => {
  const { db, path } = freshDb();
  let held = false;
  let holds = 0;
  const beats: { presyncs: number; copies: number }[] = [];
  const ck = startCheckpointer(db, {
    syncMs: 5, copyMs: 5, writerPages: 1_000_000, rewindPages: 500,
    hold: { pause: () => ((held = true), holds++), resume: () => (held = false) },
    onBeat: (b) => beats.push(b),
  });
  const r = await keepWriting(db, path, () => held, 1500);
  await ck.stop(); // its last beat has the counts at the end
  db.close();
  expect(holds).toBeGreaterThan(0);
  expect(r.rewinds).toBeGreaterThanOrEqual(5); // the hold still rewinds the log
  expect(beats.at(-1)!.presyncs).toBe(2 * holds);
});
