import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { createMeter } from "./create-cpu.ts";
import { createBodies } from "./native.ts";
import { seed } from "./seed.ts";
const sizes = (process.env.SIZES ?? "-2000,-16000").split(",").map(Number);
const dir = mkdtempSync(join(tmpdir(), "xpay-cache-"));
const meters = [];
for (const [i, size] of sizes.entries()) {
  const path = join(dir, `x${i}.db`);
  await seed(path);
  const m = createMeter<{ store: { db: Database; close(): void } }>({ buildApp, openGateway, createBodies } as never, path, `c${i}`, { creates: 200_000, batch: 500, concurrency: 64 });
  m.gw.store.db.exec(`PRAGMA cache_size = ${size}`);
  meters.push({ size, m, us: [] as number[] });
}
for (let b = 0; b < 400; b++) for (const x of meters) x.us.push(await x.m.batch());
for (const x of meters) {
  for (let q = 0; q < 4; q++) {
    const part = x.us.slice(q * 100, (q + 1) * 100).sort((a, b) => a - b);
    process.stdout.write(`cache ${x.size} creates ${q * 50}k-${(q + 1) * 50}k: median ${part[50]!.toFixed(1)} µs  `);
  }
  console.log();
}
for (const x of meters) x.m.gw.store.close();
rmSync(dir, { recursive: true, force: true });
