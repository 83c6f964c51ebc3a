// bun bench/wal-pages.ts: which B-trees the native creates write, in pages of the write-ahead log
// per create. Every page a commit changed is written to the log once per commit, and on this
// machine a page written costs the create path about 5 µs (two pwrite calls on ext4). A seeded
// database takes BEFORE creates through app.handle (CONCURRENCY in flight, so the group commit
// batches them as under load); the log is then emptied and checkpoints stopped, COUNT more creates
// run, and each frame of the log is attributed to its table or index (SQLite's dbstat).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { createMeter } from "./create-cpu.ts";
import { walPagesByTree } from "./lib.ts";
import { createBodies } from "./native.ts";
import { seed } from "./seed.ts";

const BEFORE = Number(process.env.BEFORE ?? 50_000);
const COUNT = Number(process.env.COUNT ?? 10_000);
const BATCH = 500;
const dir = mkdtempSync(join(tmpdir(), "xpay-wal-pages-"));
try {
  const path = join(dir, "xpay.db");
  await seed(path);
  const m = createMeter<{ store: { db: Database; close(): void } }>({ buildApp, openGateway, createBodies } as never, path, "w", {
    creates: BEFORE + COUNT + BATCH, batch: BATCH, concurrency: Number(process.env.CONCURRENCY ?? 64),
  });
  for (let i = 0; i < BEFORE / BATCH; i++) await m.batch();
  const db = m.gw.store.db;
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.exec("PRAGMA wal_autocheckpoint = 0");
  for (let i = 0; i < COUNT / BATCH; i++) await m.batch();
  const counts = walPagesByTree(db, path);
  const frames = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(`${COUNT} native creates after ${BEFORE}: ${frames} log frames, ${(frames / COUNT).toFixed(2)} pages per create\n`);
  console.log("| table or index | pages per create |\n|---|---:|");
  for (const [name, n] of counts) console.log(`| ${name} | ${(n / COUNT).toFixed(3)} |`);
  m.gw.store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
