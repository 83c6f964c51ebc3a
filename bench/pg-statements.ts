// bun bench/pg-statements.ts CHECKOUT [CHECKOUT ...]: what PostgreSQL runs for each paid report on
// one instance, checkouts alternated: bench/notify.ts's load (report -> paid -> notification) with
// pg_stat_statements reset before the reports, then per delivered notification the statements
// (each a round trip from the gateway, except those sent together) and the busiest statements' calls
// and mean time inside PostgreSQL (a lock wait counts in the mean). A mean that grows with the rate
// is waiting, not work. Env: BENCH_ROUNDS (2), BENCH_DURATION (s of reports, 8),
// BENCH_NOTIFY_ORDERS_PG (500 x duration), BENCH_NOTIFY_CONCURRENCY (16), BENCH_TOP (8),
// BENCH_CREATE_FIRST (s of native creates before the reports, with ANALYZE after them, as
// `npm run bench:pg` runs its notifications on the database of its create run; 0: a fresh database),
// BENCH_PLANS=1 (pg_stat_statements.track_planning on: the statements planned during the reports,
// with their plans and calls; a statement planned at every call is parsed and planned each time).
import { resolve } from "node:path";
import { startCluster } from "../test/pg/cluster.ts";
import { DURATION } from "./lib.ts";
import { SQL } from "bun";
import { startArm } from "./pg-arms.ts";
import { armBodies, createLoad } from "./pg-load.ts";
import { costReader, COST_SETTINGS } from "./pg-cost.ts";
import { notifyLoad, startReceiver } from "./notify.ts";

const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) {
  console.error("usage: bun bench/pg-statements.ts CHECKOUT [CHECKOUT ...]");
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ORDERS = Number(process.env.BENCH_NOTIFY_ORDERS_PG ?? DURATION * 500);
const CONCURRENCY = Number(process.env.BENCH_NOTIFY_CONCURRENCY ?? 16);
const TOP = Number(process.env.BENCH_TOP ?? 8);
const CREATE_FIRST = Number(process.env.BENCH_CREATE_FIRST ?? 0);

const PLANS = process.env.BENCH_PLANS === "1";
const cluster = await startCluster({ durable: true, settings: PLANS ? { ...COST_SETTINGS, "pg_stat_statements.track_planning": "on" } : COST_SETTINGS });
const cost = await costReader(cluster.url("postgres"));
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const root of round % 2 ? roots : [...roots].reverse()) {
      const arm = await startArm("pg-1", cluster, { root });
      const receiver = startReceiver();
      try {
        if (CREATE_FIRST > 0) {
          const c = await createLoad(arm, "create first", CREATE_FIRST, armBodies(arm, CREATE_FIRST, receiver.url, `F${round}`));
          const db = new SQL(cluster.url(arm.database!), { max: 1 });
          await db`ANALYZE`;
          await db.close();
          console.log(`${root} round ${round}: ${c.ok} created first (${Math.round(c.rps)}/s)`);
        }
        const r = await notifyLoad(arm, receiver, { orders: ORDERS, concurrency: CONCURRENCY, seconds: DURATION, beforeReports: () => cost.reset() });
        const all = await cost.statements(arm.database!, 1_000);
        const calls = all.reduce((a, s) => a + s.calls, 0);
        console.log(
          `${root} round ${round}: ${r.delivered} delivered (${Math.round(r.perSecond)}/s, p99 ${r.p99.toFixed(1)} ms, stolen ${r.steal.toFixed(1)} %); ` +
            `${(calls / Math.max(1, r.delivered)).toFixed(2)} statements a notification`,
        );
        for (const s of all.slice(0, TOP)) console.log(`  ${String(s.calls).padStart(6)} x ${s.meanMs.toFixed(3)} ms  ${s.query}`);
        if (PLANS) {
          console.log("  inside functions (calls x mean time):");
          for (const s of await cost.statements(arm.database!, TOP, true)) console.log(`  ${String(s.calls).padStart(6)} x ${s.meanMs.toFixed(3)} ms  ${s.query}`);
          console.log("  planned (plans / calls, mean planning time):");
          for (const p of await cost.plans(arm.database!)) console.log(`  ${String(p.plans).padStart(6)} / ${String(p.calls).padStart(6)} x ${p.meanPlanMs.toFixed(3)} ms ${p.toplevel ? "" : "(nested) "} ${p.query}`);
        }
      } finally {
        receiver.stop();
        await arm.stop();
      }
    }
  }
} finally {
  await cost.close();
  cluster.stop();
}
