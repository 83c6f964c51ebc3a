// bun bench/metrics-cost.ts: the cost of counting for /metrics on native create, measured inside
// one process so that the machine's drift cancels out: one gateway on a seeded temp database, its
// app, and batches of BATCH creates (signed before the run; CONCURRENCY in flight, so the group
// commit batches them as under load) sent through app.handle, rotating three arms for ROUNDS
// rounds: counting (the Prometheus registry), not counting (the no-op), and not counting again
// (the noise floor). The HTTP duration of each create is observed as `serve` does. Measured in
// CPU time of this process, which other processes' load moves far less than wall time. bench/metrics.ts measures the same over HTTP, where this machine's noise is
// larger than the effect.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { noMetrics } from "../src/core/metrics.ts";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { metricsOf } from "../src/server/metrics/registry.ts";
import { createMeter, type ServerCode } from "./create-cpu.ts";
import { createBodies } from "./native.ts";
import { seed } from "./seed.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 60);
const BATCH = Number(process.env.BATCH ?? 500);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const dir = mkdtempSync(join(tmpdir(), "xpay-metrics-cost-"));
try {
  const db = join(dir, "xpay.db");
  await seed(db);
  const gw = openGateway({ db });
  const counting = metricsOf(gw);
  // The server's fetch wrapper records each request's duration; app.handle alone does not.
  const { batch } = createMeter({ buildApp, openGateway: () => gw, createBodies } as unknown as ServerCode, db, "C", {
    creates: ROUNDS * 3 * BATCH + BATCH, batch: BATCH, concurrency: CONCURRENCY, // three arms a round on this one gateway
    answered: (seconds) => gw.metrics.httpRequest("/xpay/order/create", seconds),
  });
  gw.metrics = noMetrics;
  await batch(); // warm-up
  // Three arms in rotation: counting, not counting, and not counting again. The last two run the
  // same code, so their ratio is this machine's noise floor for the first ratio.
  const arms = { counting: [] as number[], off: [] as number[], "off again": [] as number[] };
  const names = Object.keys(arms) as (keyof typeof arms)[];
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      gw.metrics = name === "counting" ? counting : noMetrics;
      arms[name].push(await batch());
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = (a: number[], b: number[]) => median(a.map((x, i) => x / b[i]!));
  console.log(
    `native create through app.handle, ${ROUNDS} rounds of ${BATCH} per arm (${CONCURRENCY} in flight), CPU time per create: ` +
      `counting ${median(arms.counting).toFixed(1)} µs, not counting ${median(arms.off).toFixed(1)} µs, not counting again ${median(arms["off again"]).toFixed(1)} µs; ` +
      `median ratio counting / not ${ratio(arms.counting, arms.off).toFixed(3)}, noise floor (not again / not) ${ratio(arms["off again"], arms.off).toFixed(3)}`,
  );
  gw.store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
