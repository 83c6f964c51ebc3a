// scratch (not committed): pg_stat_statements per delivered notification, two checkouts alternated
import { startCluster } from "../test/pg/cluster.ts";
import { startArm } from "./pg-arms.ts";
import { costReader, COST_SETTINGS } from "./pg-cost.ts";
import { notifyLoad, startReceiver } from "./notify.ts";
const roots = process.argv.slice(2);
const cluster = await startCluster({ durable: true, settings: COST_SETTINGS });
const cost = await costReader(cluster.url("postgres"));
try {
  for (let round = 1; round <= 2; round++) {
    for (const root of round % 2 ? roots : [...roots].reverse()) {
      const arm = await startArm("pg-1", cluster, { root });
      const receiver = startReceiver();
      const r = await notifyLoad(arm, receiver, { orders: 4000, concurrency: 16, seconds: 8, beforeReports: () => cost.reset() });
      const st = await cost.statements(arm.database!, 40);
      const calls = st.reduce((a, s) => a + s.calls, 0);
      const upd = st.find((s) => s.query.startsWith("UPDATE orders SET status = $1"));
      console.log(`${root} round ${round}: ${r.delivered} delivered, ${(r.delivered / 8).toFixed(0)}/s; statements/notification ${(calls / r.delivered).toFixed(2)}; payment UPDATE mean ${upd?.meanMs.toFixed(3)} ms (${upd?.calls} calls)`);
      for (const s of st.slice(0, 8)) console.log(`   ${s.calls} x ${s.meanMs.toFixed(3)} ms  ${s.query}`);
      receiver.stop();
      await arm.stop();
    }
  }
} finally {
  await cost.close();
  cluster.stop();
}
