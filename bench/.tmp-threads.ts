// scratch: per-thread CPU of the arm's servers during an 8 s create run after W s warm-up
import { readdirSync, readFileSync } from "node:fs";
import { SQL } from "bun";
import { startCluster } from "../test/pg/cluster.ts";
import { startArm, type ArmName } from "./pg-arms.ts";
import { COST_SETTINGS } from "./pg-cost.ts";
import { startReceiver } from "./notify.ts";
import { createLoad } from "./pg-load.ts";
const TICK = 10; // ms per clock tick
function threads(pid: number): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    const s = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8");
    const name = s.slice(s.indexOf("(") + 1, s.lastIndexOf(")")).replace(/\d+$/, "#");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    const cpu = (Number(f[11]) + Number(f[12])) * TICK;
    m.set(name, (m.get(name) ?? 0) + cpu);
  }
  return m;
}
const cluster = await startCluster({ durable: true, settings: COST_SETTINGS });
const plan = (process.env.PLAN ?? "pg-1:2,pg-2:2,pg-1:8,pg-2:8").split(",");
try {
  for (const p of plan) {
    const [name, w] = p.split(":");
    const receiver = startReceiver();
    const arm = await startArm(name as ArmName, cluster);
    try {
      await createLoad(arm, "warm", Number(w), receiver.url, `W${p}`);
      const db = new SQL(cluster.url(arm.database!), { max: 1 });
      await db`ANALYZE`;
      await db.close();
      const before = arm.pids.map(threads);
      const r = await createLoad(arm, "m", 8, receiver.url, `N${p}`);
      const after = arm.pids.map(threads);
      const sum = new Map<string, number>();
      after.forEach((a, i) => { for (const [k, v] of a) sum.set(k, (sum.get(k) ?? 0) + v - (before[i].get(k) ?? 0)); });
      const parts = [...sum].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / 1000).toFixed(2)}`);
      console.log(`${p}: ${Math.round(r.rps)}/s p99 ${r.p99} | ${parts.join(", ")}`);
    } finally { await arm.stop(); receiver.stop(); }
  }
} finally { cluster.stop(); }
