// bun bench/rounds.ts [CHECKOUT ...]: native creates in three rounds on one server, each round on
// the database the rounds before it filled (as `npm run bench` runs them), with p50 and p99 per
// round: what grows with the database shows as a trend across the rounds. Given checkouts (this
// one by default; they need node_modules, a symlink will do) are measured in turn.
import { resolve } from "node:path";
import { createBodies, createOk } from "./native.ts";
import { load, pool } from "./lib.ts";
import { startRig } from "./rig.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) roots.push(resolve(import.meta.dir, ".."));

console.log(`xpay bench:rounds ${new Date().toISOString()}: ${ROUNDS} rounds of native creates on one server per checkout, 64 connections`);
console.log("\n| checkout | round | creates/s | baseline req/s | vs baseline | p50 ms | p99 ms | failed | CPU stolen |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const root of roots) {
  const rig = await startRig("xpay-rounds-", root);
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const bodies = pool(createBodies(200_000, `R${r}-${Date.now()}-`, rig.receiver.url).bodies);
      const spec = { name: "create", url: rig.gateway, path: "/xpay/order/create", body: () => bodies.next(), ok: createOk };
      await load({ ...spec, duration: 2 });
      const base = await load({ name: "baseline", url: rig.baseline, path: "/", body: () => "a=1" });
      const x = await load(spec);
      if (bodies.wrapped) console.error("create pool ran out: later answers were idempotent repeats");
      console.log(`| ${root} | ${r + 1} | ${Math.round(x.rps)} | ${Math.round(base.rps)} | ${((100 * x.rps) / base.rps).toFixed(1)} % | ${x.p50} | ${x.p99} | ${x.failed + x.errors} | ${x.steal.toFixed(1)} % |`);
    }
  } finally {
    await rig.stop();
  }
}
