import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { createMeter } from "./create-cpu.ts";
import { createBodies } from "./native.ts";
import { seed } from "./seed.ts";
function threads(): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of readdirSync(`/proc/self/task`)) {
    const s = readFileSync(`/proc/self/task/${t}/stat`, "utf8");
    const name = t === String(process.pid) ? "main" : s.slice(s.indexOf("(") + 1, s.lastIndexOf(")"));
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    m.set(name, (m.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
  }
  return m;
}
const dir = mkdtempSync(join(tmpdir(), "xpay-grow-"));
const path = join(dir, "x.db");
await seed(path);
const m = createMeter<{ store: { db: Database; close(): void } }>({ buildApp, openGateway, createBodies } as never, path, "g", { creates: 400_000, batch: 500, concurrency: 64 });
for (let q = 0; q < 8; q++) {
  const before = threads();
  for (let b = 0; b < 100; b++) await m.batch();
  const after = threads();
  const parts = [...after].map(([k, v]) => [k, (v - (before.get(k) ?? 0)) / 50_000 * 1000] as const).filter(([, v]) => v > 0.5).sort((a, b) => b[1] - a[1]);
  console.log(`${q * 50}k-${(q + 1) * 50}k: ` + parts.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ") + " µs/create");
}
m.gw.store.close();
rmSync(dir, { recursive: true, force: true });
