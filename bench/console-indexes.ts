// bun bench/console-indexes.ts: what the indexes of migrations 010 and 011 (income stats, the
// console's order list) cost native create. Two gateways in this process on two seeded databases
// (bench/seed.ts): "now" with every index, "before" with those dropped (what a create wrote before
// issues 17 and 18). Batches of BATCH creates (signed before the run, CONCURRENCY in flight so the
// group commit batches them as under load) go through app.handle, rotating three arms for ROUNDS
// rounds: now, before, and now again (the same code twice: the noise floor of the ratio).
// Measured in CPU time of this process, which other processes' load moves far less than wall
// time: on this shared machine an HTTP throughput comparison (autocannon, two servers) swung
// 0.2x-2.9x between rounds while the machine ran other work. DROP=a,b drops only those indexes.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { createMeter, type ServerCode } from "./create-cpu.ts";
import { createBodies } from "./native.ts";
import { seed } from "./seed.ts";

/** Every index migrations 010, 011 and 025 left on `orders` and `reports` for the console and the stats (025 replaced four of 010's with rollups). */
export const CONSOLE_INDEXES = [
  "orders_created_stats", // 010 (widened by 023)
  "orders_by_pid_created", "orders_by_status_created", "orders_late", "reports_by_trade_no", // 011
  "orders_paid_at", // 025
];

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const BATCH = Number(process.env.BATCH ?? 500);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const dir = mkdtempSync(join(tmpdir(), "xpay-index-cost-"));

async function gateway(name: string, drop: boolean) {
  const db = join(dir, `${name}.db`);
  await seed(db);
  if (drop) {
    const raw = new Database(db);
    for (const index of process.env.DROP ? process.env.DROP.split(",") : CONSOLE_INDEXES) raw.exec(`DROP INDEX ${index}`);
    // And the rollups' upkeep (migration 025), which took the place of four stats indexes.
    if (!process.env.DROP) for (const t of ["insert", "created", "paid", "delete"]) raw.exec(`DROP TRIGGER order_rollup_${t}`);
    raw.close();
  }
  return createMeter<ReturnType<typeof openGateway>>({ buildApp, openGateway, createBodies } as unknown as ServerCode, db, name, { creates: ROUNDS * 2 * BATCH + BATCH, batch: BATCH, concurrency: CONCURRENCY });
}

try {
  const now = await gateway("now", false);
  const before = await gateway("before", true);
  await now.batch(); // warm-up
  await before.batch();
  const arms = { now: [] as number[], before: [] as number[], "now again": [] as number[] };
  const run = { now: now.batch, before: before.batch, "now again": now.batch };
  const names = Object.keys(arms) as (keyof typeof arms)[];
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      arms[name].push(await run[name]());
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = (a: number[], b: number[]) => median(a.map((x, i) => x / b[i]!));
  console.log(
    `native create through app.handle, ${ROUNDS} rounds of ${BATCH} per arm (${CONCURRENCY} in flight), CPU time per create: ` +
      `now ${median(arms.now).toFixed(1)} µs, before 010/011 ${median(arms.before).toFixed(1)} µs, now again ${median(arms["now again"]).toFixed(1)} µs; ` +
      `median ratio now / before ${ratio(arms.now, arms.before).toFixed(3)} (creates/s before / now: ${(1 / ratio(arms.now, arms.before)).toFixed(3)}), ` +
      `noise floor (now again / now) ${ratio(arms["now again"], arms.now).toFixed(3)}`,
  );
  now.gw.store.close();
  before.gw.store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
