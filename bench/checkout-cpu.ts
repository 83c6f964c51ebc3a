// bun bench/checkout-cpu.ts OLD_CHECKOUT NEW_CHECKOUT: whether the SQLite create path of one
// checkout costs more CPU than another's. Both checkouts' server code is loaded in this process
// (two module graphs, one per folder), each gateway on its own seeded database (bench/seed.ts of
// its checkout); batches of BATCH native creates (signed before the run, CONCURRENCY in flight so
// the group commit batches them as under load) go through app.handle, rotating four arms for
// ROUNDS rounds: each checkout on two databases (the second its noise floor). Each
// database takes one batch a round: a gateway measured twice a round would fill its amounts twice
// as fast and look slower. CPU time of this process moves far less with the machine's other load
// than the HTTP rates of `npm run bench` do. The checkouts need node_modules (a symlink will do).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMeter } from "./create-cpu.ts";
import { fourArms, rotate, seededCheckout, twoCheckouts } from "./two-checkouts.ts";

const { oldRoot, newRoot } = twoCheckouts("bun bench/checkout-cpu.ts OLD_CHECKOUT NEW_CHECKOUT");
const ROUNDS = Number(process.env.ROUNDS ?? 100);
const BATCH = Number(process.env.BATCH ?? 500);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const dir = mkdtempSync(join(tmpdir(), "xpay-checkout-cpu-"));

async function gateway(name: string, root: string) {
  const db = join(dir, `${name}.db`);
  const { buildApp, openGateway, load } = await seededCheckout(root, db);
  const { createBodies } = await load("bench/native.ts");
  return createMeter<{ store: { close(): void } }>({ buildApp, openGateway, createBodies }, db, name, { creates: ROUNDS * BATCH + BATCH, batch: BATCH, concurrency: CONCURRENCY });
}

try {
  const gws = await fourArms(oldRoot, newRoot, gateway);
  const line = await rotate(gws, ROUNDS);
  console.log(`native create through app.handle, ${ROUNDS} rounds of ${BATCH} per arm (${CONCURRENCY} in flight), CPU time per create: ${line}`);
  for (const g of Object.values(gws)) g.gw.store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
