// bun bench/checkout-cpu.ts OLD_CHECKOUT NEW_CHECKOUT: whether the SQLite create path of one
// checkout costs more CPU than another's. Both checkouts' server code is loaded in this process
// (two module graphs, one per folder), each gateway on its own seeded database (bench/seed.ts of
// its checkout); batches of BATCH native creates (signed before the run, CONCURRENCY in flight so
// the group commit batches them as under load) go through app.handle, rotating three arms for
// ROUNDS rounds: old, new, and new again on a third database (the noise floor of the ratio). Each
// database takes one batch a round: a gateway measured twice a round would fill its amounts twice
// as fast and look slower. CPU time of this process moves far less with the machine's other load
// than the HTTP rates of `npm run bench` do. The checkouts need node_modules (a symlink will do).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createMeter } from "./create-cpu.ts";

const [oldRoot, newRoot] = process.argv.slice(2).map((p) => resolve(p));
if (!oldRoot || !newRoot) {
  console.error("usage: bun bench/checkout-cpu.ts OLD_CHECKOUT NEW_CHECKOUT");
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS ?? 100);
const BATCH = Number(process.env.BATCH ?? 500);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const dir = mkdtempSync(join(tmpdir(), "xpay-checkout-cpu-"));

async function gateway(name: string, root: string) {
  const { buildApp } = await import(join(root, "src/server/app.ts"));
  const { openGateway } = await import(join(root, "src/server/bootstrap.ts"));
  const { seed } = await import(join(root, "bench/seed.ts"));
  const { createBodies } = await import(join(root, "bench/native.ts"));
  const db = join(dir, `${name}.db`);
  await seed(db);
  return createMeter<{ store: { close(): void } }>({ buildApp, openGateway, createBodies }, db, name, { creates: ROUNDS * BATCH + BATCH, batch: BATCH, concurrency: CONCURRENCY });
}

try {
  const gws = { old: await gateway("old", oldRoot), new: await gateway("new", newRoot), "new again": await gateway("new-again", newRoot) };
  const names = Object.keys(gws) as (keyof typeof gws)[];
  for (const n of names) await gws[n].batch(); // warm-up
  const arms = { old: [] as number[], new: [] as number[], "new again": [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      arms[name].push(await gws[name].batch());
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = (a: number[], b: number[]) => median(a.map((x, i) => x / b[i]!));
  console.log(
    `native create through app.handle, ${ROUNDS} rounds of ${BATCH} per arm (${CONCURRENCY} in flight), CPU time per create: ` +
      `old ${median(arms.old).toFixed(1)} µs, new ${median(arms.new).toFixed(1)} µs, new again ${median(arms["new again"]).toFixed(1)} µs; ` +
      `median ratio new / old ${ratio(arms.new, arms.old).toFixed(3)}, noise floor (new again / new) ${ratio(arms["new again"], arms.new).toFixed(3)}`,
  );
  for (const n of names) gws[n].gw.store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
