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

/**
 * Writes 50-row batches between turns until `enough` says so (or `capMs` passes), and counts the
 * log's rewinds. Not for a fixed time: how many holds fit in a second is the disk's (each hold waits
 * for the thread's syncs), and a test bounded by time failed on a slow disk.
 */
async function keepWriting(db: ReturnType<typeof openDatabase>, path: string, held: () => boolean, enough: (batches: number) => boolean, capMs = 20_000) {
  const salts = new Set<number>();
  const end = Date.now() + capMs;
  let batches = 0;
  while (!enough(batches) && Date.now() < end) {
    if (!held()) {
      writePages(db, 50);
      batches++;
    }
    await Bun.sleep(1);
    salts.add(walSalt(path));
  }
  return { rewinds: salts.size - 1, batches, walBytes: statSync(`${path}-wal`).size };
}

// The writes are held up to 10 s, not the store's 250 ms: a hold cut short by a slow sync rewinds
// nothing, and this is about what a hold does, not about this disk.
const HOLD = { syncMs: 5, copyMs: 5, writerPages: 1_000_000, rewindPages: 500, holdMaxMs: 10_000 };
const HOLDS = 8;

test("writes held between turns: the thread rewinds the log while commits keep coming; without the hold it seldom can", async () => {
  const run = async (hold: boolean, enough: (batches: number, holds: number) => boolean) => {
    const { db, path } = freshDb();
    let held = false;
    let holds = 0;
    // The writer's own checkpoint (the safety valve) is out of the way: it rewinds the log too.
    const ck = startCheckpointer(db, { ...HOLD, ...(hold ? { hold: { pause: () => ((held = true), holds++), resume: () => (held = false) } } : {}) });
    const r = await keepWriting(db, path, () => held, (batches) => enough(batches, holds));
    await ck.stop();
    db.close();
    return { ...r, holds, heldAtEnd: held };
  };
  const withHold = await run(true, (_, holds) => holds >= HOLDS);
  const without = await run(false, (batches) => batches >= withHold.batches); // as many writes
  expect(withHold.holds).toBeGreaterThanOrEqual(HOLDS);
  expect(withHold.heldAtEnd).toBe(false); // stopping lets the writes go
  expect(withHold.rewinds).toBeGreaterThanOrEqual(HOLDS - 1); // each hold rewinds (the last may be cut by the stop)
  expect(without.holds).toBe(0);
  // Fewer without: on a quiet machine a third or less, but with the cores busy the writer's 1 ms
  // sleeps stretch and leave the thread room to rewind (8-10 against 18, 2026-11-30, beside a
  // busy loop), so the test asks only for fewer.
  expect(without.rewinds).toBeLessThan(withHold.rewinds);
}, 60_000);

test("before each hold the thread flushes the database file and copies again, twice", async () => {
  const { db, path } = freshDb();
  let held = false;
  let holds = 0;
  const beats: { presyncs: number; copies: number }[] = [];
  const ck = startCheckpointer(db, { ...HOLD, hold: { pause: () => ((held = true), holds++), resume: () => (held = false) }, onBeat: (b) => beats.push(b) });
  const r = await keepWriting(db, path, () => held, () => holds >= HOLDS);
  await ck.stop(); // its last beat has the counts at the end
  db.close();
  expect(holds).toBeGreaterThanOrEqual(HOLDS);
  expect(r.rewinds).toBeGreaterThanOrEqual(HOLDS - 1); // the hold still rewinds the log
  expect(beats.at(-1)!.presyncs).toBe(2 * holds);
}, 60_000);
