// bun bench/notify-ab.ts CHECKOUT [CHECKOUT ...]: report -> paid -> notification (bench/notify.ts)
// on the servers of two (or more) checkouts, alternated: each round runs every arm of every
// checkout on a fresh database, the checkouts' order reversed every other round, so an old and a
// new figure are seconds apart on this shared machine. No baseline of its own: the ratio that
// matters here is new to old, measured side by side. Each measurement records the CPU stolen.
// Env: BENCH_ROUNDS (3), BENCH_DURATION (s of reports, 8), BENCH_ARMS (sqlite-1,pg-1,pg-2),
// BENCH_NOTIFY_ORDERS (pending orders per measurement, 3 000 x duration: a round at 2 000 a second
// does not run out before its end; BENCH_NOTIFY_ORDERS_PG on PostgreSQL, 1 000 x duration),
// BENCH_WARMUP (s of reports on orders of their own before each measurement, not measured; 2, as
// every scenario of `npm run bench`; 0 measures a server's first reports),
// BENCH_NOTIFY_CONCURRENCY (16),
// (PostgreSQL's CPU a notification is the whole server's, every backend and its background work,
// over the measured reports; the arms run one at a time on the one cluster),
// BENCH_PROFILE=DIR (servers run under `bun --cpu-prof-md`, one profile per process in DIR/<checkout>-<arm>-<round>).
// The checkouts need node_modules (a symlink will do); the database is seeded by this checkout.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { startCluster } from "../test/pg/cluster.ts";
import { cpuMs, DURATION, percentile, WARMUP } from "./lib.ts";
import { type ArmName, startArm } from "./pg-arms.ts";
import { type NotifyResult, startReceiver, warmedNotifyLoad } from "./notify.ts";
import { serverCpuMs } from "./pg-cost.ts";

const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) {
  console.error("usage: bun bench/notify-ab.ts CHECKOUT [CHECKOUT ...]");
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ARMS = (process.env.BENCH_ARMS ?? "sqlite-1,pg-1,pg-2").split(",") as ArmName[];
const ORDERS = Number(process.env.BENCH_NOTIFY_ORDERS ?? DURATION * 3000);
// PostgreSQL creates the pending orders far slower (its create path is measured by bench:pg): fewer.
const ORDERS_PG = Number(process.env.BENCH_NOTIFY_ORDERS_PG ?? DURATION * 1000);
const CONCURRENCY = Number(process.env.BENCH_NOTIFY_CONCURRENCY ?? 16);
const PROFILE = process.env.BENCH_PROFILE;
const log = (...a: unknown[]) => console.error("[bench:notify-ab]", ...a);
const loadAvg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const describe = (root: string) => {
  const g = spawnSync("git", ["-C", root, "describe", "--always", "--dirty"], { encoding: "utf8" });
  return g.status === 0 ? g.stdout.trim() : basename(root);
};
const labels = roots.map((r, i) => `${String.fromCharCode(65 + i)} ${r} (${describe(r)})`);

const cluster = ARMS.some((a) => a.startsWith("pg")) ? await startCluster({ durable: true }) : null;
const runs: { checkout: number; arm: ArmName; round: number; r: NotifyResult; cpu: number; pgCpu: number }[] = [];
const loadAt = [loadAvg()];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const arm of ARMS) {
      const order = roots.map((_, i) => i);
      for (const c of round % 2 ? order : order.reverse()) {
        const receiver = startReceiver();
        const cwd = PROFILE ? join(resolve(PROFILE), `${String.fromCharCode(65 + c)}-${arm}-${round}`) : undefined;
        if (cwd) mkdirSync(cwd, { recursive: true });
        const a = await startArm(arm, cluster, { root: roots[c], ...(cwd ? { cwd, bunFlags: [process.env.BENCH_PROFILE_FORMAT === "json" ? "--cpu-prof" : "--cpu-prof-md"] } : {}) });
        try {
          let before = 0;
          let pgBefore = 0;
          const pgCpuMs = () => (cluster && arm !== "sqlite-1" ? serverCpuMs(cluster.dataDir) : Number.NaN);
          const r = await warmedNotifyLoad(a, receiver, {
            orders: arm === "sqlite-1" ? ORDERS : ORDERS_PG, concurrency: CONCURRENCY, seconds: DURATION, warmup: WARMUP,
            beforeReports: async () => {
              before = cpuMs(a.pids);
              pgBefore = pgCpuMs();
            },
          });
          const cpu = (cpuMs(a.pids) - before) / r.delivered;
          const pgCpu = (pgCpuMs() - pgBefore) / r.delivered;
          runs.push({ checkout: c, arm, round, r, cpu, pgCpu });
          log(`round ${round} ${arm} ${String.fromCharCode(65 + c)}: ${Math.round(r.perSecond)}/s, p50 ${r.p50.toFixed(1)} p99 ${r.p99.toFixed(1)} ms, ${r.delivered}/${r.matched} delivered, ${r.failed} failed, ${r.repeats} repeats, ${r.reports} reports of ${r.orders}, stolen ${r.steal.toFixed(1)}%, server CPU ${cpu.toFixed(3)} ms per notification, PostgreSQL ${pgCpu.toFixed(3)} ms, load generator ${r.clientCpu.toFixed(3)} ms`);
        } finally {
          await a.stop();
          receiver.stop();
        }
      }
    }
  }
} finally {
  cluster?.stop();
}
loadAt.push(loadAvg());

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d }).replaceAll(",", " ") : "-");
const med = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const out = [
  `report -> paid -> notification, ${ROUNDS} rounds alternated, ${DURATION} s of reports from ${CONCURRENCY} senders, ${ORDERS} pending orders per measurement on SQLite, ${ORDERS_PG} on PostgreSQL; load average ${loadAt.join(" -> ")}`,
  "",
  ...labels.map((l) => `- ${l}`),
  "",
  "| round | setup | checkout | notifications/s | p50 ms | p99 ms | max ms | report answer p99 ms | delivered/matched | repeats | server CPU ms per notification | PostgreSQL CPU ms per notification | CPU stolen |",
  "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...runs.map(({ checkout, arm, round, r, cpu, pgCpu }) =>
    `| ${round} | ${arm} | ${String.fromCharCode(65 + checkout)} | ${fmt(r.perSecond)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${fmt(r.max, 1)} | ${fmt(r.reportP99, 1)} | ${r.delivered}/${r.matched} | ${r.repeats} | ${fmt(cpu, 3)} | ${fmt(pgCpu, 3)} | ${fmt(r.steal, 1)}% |`),
  "",
  "| setup | checkout | median notifications/s | median p50 ms | median p99 ms | median server CPU ms per notification | median PostgreSQL CPU ms per notification | CPU stolen (range) |",
  "|---|---|---:|---:|---:|---:|---:|---|",
  ...ARMS.flatMap((arm) =>
    roots.map((_, c) => {
      const mine = runs.filter((x) => x.arm === arm && x.checkout === c);
      const rs = mine.map((x) => x.r);
      const st = rs.map((r) => r.steal);
      return `| ${arm} | ${String.fromCharCode(65 + c)} | ${fmt(med(rs.map((r) => r.perSecond)))} | ${fmt(med(rs.map((r) => r.p50)), 1)} | ${fmt(med(rs.map((r) => r.p99)), 1)} | ${fmt(med(mine.map((x) => x.cpu)), 3)} | ${fmt(med(mine.map((x) => x.pgCpu)), 3)} | ${fmt(Math.min(...st), 1)}-${fmt(Math.max(...st), 1)}% |`;
    })),
];
console.log(out.join("\n"));
