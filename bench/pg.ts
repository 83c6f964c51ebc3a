// npm run bench:pg: native create and report -> notification on SQLite (one instance), on
// PostgreSQL (one instance) and on PostgreSQL with two `xpay serve` processes on one database,
// in BENCH_ROUNDS rounds with the order of the setups alternated. PostgreSQL is a throwaway
// cluster with its durable defaults (fsync, synchronous_commit, full_page_writes on: each commit
// waits for its WAL flush). SQLite runs WAL with synchronous = NORMAL (src/store/db.ts: a commit is
// not flushed, a checkpoint is); BENCH_PG_SYNCHRONOUS_COMMIT=off is PostgreSQL's like of it.
// Every figure is measured right after a run of the bare-Elysia baseline and given as a share of
// it: the machine is shared and its speed drifts. Each create run also reads what a create costs
// (bench/pg-cost.ts): the servers' CPU, PostgreSQL's CPU, this process's (the load generator), WAL
// bytes, and the create statement's pg_stat_statements line (calls, mean time, rows).
// Every create run is measured once the servers' JIT compilers have settled (warmUntilCompiled,
// bench/settle.ts): each instance compiles the request path on its own, as often as it runs it, so
// a fixed warm-up shared by two instances left both still compiling in the measured run. The
// notification run has a fixed warm-up; its JIT CPU is read and reported, as the create run's.
// Env: BENCH_ROUNDS (3), BENCH_DURATION (s per measurement, 8), BENCH_WARMUP (2, the least warm-up
// before the creates, and the warm-up before the reports; 0: none), BENCH_WARMUP_CAP (20, the most
// a create warm-up runs, s), BENCH_CONNECTIONS
// (64 in all, shared out over the instances), BENCH_NOTIFY_ORDERS, BENCH_NOTIFY_CONCURRENCY (16),
// BENCH_ARMS (comma list of sqlite-1,pg-1,pg-2), BENCH_XPAY_ROOT (the checkout whose server runs),
// BENCH_PG_SYNCHRONOUS_COMMIT=off (PostgreSQL's commits as SQLite's WAL with synchronous = NORMAL).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { startCluster } from "../test/pg/cluster.ts";
import { BUN, CONNECTIONS, DURATION, firstLine, load, type LoadSpec, rss, WARMUP } from "./lib.ts";
import { type Arm, type ArmName, startArm, SYNCHRONOUS_COMMIT, XPAY_ROOT } from "./pg-arms.ts";
import { costReader, COST_SETTINGS, jitSince, jitThreadsMs, processCpuMs, serverCpuMs } from "./pg-cost.ts";
import { startReceiver, warmedNotifyLoad } from "./notify.ts";
import { type Settled, untilSettled } from "./settle.ts";
import { armBodies, createLoad } from "./pg-load.ts";
import { type ArmRun, type CreateCost, render } from "./pg-report.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ARMS = (process.env.BENCH_ARMS ?? "sqlite-1,pg-1,pg-2").split(",") as ArmName[];
// Pending orders for the reports: enough that the senders do not run out before the end (SQLite
// pays 2 000-3 000 a second here, PostgreSQL up to 1 000), as bench/notify-ab.ts makes them.
const NOTIFY_ORDERS = (arm: ArmName) => Number(process.env.BENCH_NOTIFY_ORDERS ?? DURATION * (arm === "sqlite-1" ? 3000 : 1000));
const NOTIFY_CONCURRENCY = Number(process.env.BENCH_NOTIFY_CONCURRENCY ?? 16);
const log = (...a: unknown[]) => console.error("[bench:pg]", ...a);
const loadAvg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const t0 = performance.now();

const git = spawnSync("git", ["-C", XPAY_ROOT, "describe", "--always", "--dirty"], { encoding: "utf8" });
const head = `${XPAY_ROOT} (${git.status === 0 ? git.stdout.trim() : "not a git checkout"})`;
const loadAt = [loadAvg()];

const cluster = ARMS.some((a) => a.startsWith("pg")) ? await startCluster({ durable: true, settings: COST_SETTINGS }) : null;
const cost = cluster ? await costReader(cluster.url("postgres")) : null;

/** CPU of the servers, of PostgreSQL and of this process (the load generator), and WAL, around `work`. */
async function costed<T extends { ok: number }>(arm: Arm, database: string | null, work: () => Promise<T>): Promise<{ result: T; cost: CreateCost }> {
  await cost?.reset();
  const cpu = () => ({ app: arm.pids.reduce((a, p) => a + processCpuMs(p), 0), pg: cluster ? serverCpuMs(cluster.dataDir) : 0, client: process.cpuUsage() });
  const before = { ...cpu(), wal: await cost?.wal() };
  const result = await work();
  const after = cpu();
  const wal = await cost?.wal();
  const per = (v: number) => (result.ok ? v / result.ok : NaN);
  const client = process.cpuUsage(before.client);
  const statement = database && cost ? (await cost.statements(database)).find((s) => /xpay_create_order|INSERT INTO orders/.test(s.query)) ?? null : null;
  return {
    result,
    cost: {
      appMs: per(after.app - before.app), pgMs: cluster && database ? per(after.pg - before.pg) : NaN, clientMs: per((client.user + client.system) / 1000),
      walBytes: before.wal && wal && database ? per(await cost!.walBytes(before.wal.lsn, wal.lsn)) : NaN, statement, warmupS: 0, jitMs: NaN,
    },
  };
}
/** The most a create warm-up runs, s, and the JIT CPU per instance a second that counts as settled, ms. */
const WARMUP_CAP = Number(process.env.BENCH_WARMUP_CAP ?? 20);
const JIT_SETTLED_MS = 10;

/** A reading of the arm's instances' JIT threads; what it returns reads each one's CPU since, ms. */
const jitOf = (arm: Arm) => () => {
  const before = arm.pids.map(jitThreadsMs);
  return () => arm.pids.map((p, i) => jitSince(before[i] ?? new Map(), jitThreadsMs(p)));
};
const sum = (ms: number[]) => ms.reduce((a, b) => a + b, 0);

/** Creates on the arm until its JIT has settled (bench/settle.ts); BENCH_WARMUP=0: none. */
function warmUntilCompiled(arm: Arm, notifyUrl: string, tag: string): Promise<Settled> {
  return untilSettled({
    first: () => createLoad(arm, "warm", WARMUP, armBodies(arm, WARMUP, notifyUrl, `${tag}a`)),
    firstSeconds: WARMUP,
    // each second's bodies are signed before its load starts (its clock starts when it is made)
    step: () => {
      const bodies = armBodies(arm, 1, notifyUrl, `${tag}${Date.now()}`);
      return createLoad(arm, "warm", 1, bodies);
    },
    jit: jitOf(arm), settledMs: JIT_SETTLED_MS, cap: WARMUP_CAP,
  });
}

const baselineProc = Bun.spawn([BUN, join(import.meta.dir, "baseline-server.ts")], { stdout: "pipe", stderr: "inherit" });
const runs: ArmRun[] = [];
const durability = new Set<string>();
try {
  const baselineSpec: LoadSpec = { name: "baseline (bare Elysia)", url: `http://127.0.0.1:${await firstLine(baselineProc.stdout)}`, path: "/", body: () => "a=1" };
  if (WARMUP > 0) await load({ ...baselineSpec, duration: WARMUP });

  for (let round = 1; round <= ROUNDS; round++) {
    // alternate: a setup measured first in one round is measured last in the next
    for (const name of round % 2 ? ARMS : [...ARMS].reverse()) {
      const receiver = startReceiver();
      const arm = await startArm(name, cluster);
      try {
        const warm = await warmUntilCompiled(arm, receiver.url, `W${round}-`);
        log(`round ${round} ${name}: warmed ${warm.seconds} s, JIT CPU in its last second ${warm.lastJitMs} ms`);
        // Statistics, as autovacuum gathers them within a minute of a production database's first
        // orders: without them every connection's generic plan of the out_trade_no lookup, made on
        // the empty table, read every order of the merchant (orders_by_pid_created) for the run.
        if (cluster && arm.database) {
          const db = new SQL(cluster.url(arm.database), { max: 1 });
          await db`ANALYZE`;
          await db.close();
        }
        const createBaseline = await load(baselineSpec);
        const jitCreates = jitOf(arm)();
        const bodies = armBodies(arm, DURATION, receiver.url, `N${round}`);
        const { result: create, cost: createCost } = await costed(arm, arm.database, () => createLoad(arm, `${name} create`, DURATION, bodies));
        const jitMs = sum(jitCreates());
        createCost.warmupS = warm.seconds;
        createCost.jitMs = jitMs;
        log(`round ${round} ${name}: create ${Math.round(create.rps)} req/s (baseline ${Math.round(createBaseline.rps)}), p99 ${create.p99} ms, ok ${create.ok}, failed ${create.failed}, errors ${create.errors}; JIT CPU ${jitMs} ms`);
        let notifyBaseline = createBaseline;
        // as many pending orders as the senders can report in the time, and no more than the arm
        // creates in the create run's time (making them must not take most of the round)
        const orders = Math.min(NOTIFY_ORDERS(name), Math.max(500, Math.ceil(create.rps * DURATION)));
        // A fixed warm-up: one until the JIT settled never settled on PostgreSQL in 20 s (the report
        // path kept compiling, 0.36-0.89 s in the run either way), and its 20 s of paid orders made the
        // measured run slower (docs/benchmarks.md, 2026-12-01 05:50).
        let jitReports = () => [NaN];
        const notify = await warmedNotifyLoad(arm, receiver, {
          orders, concurrency: NOTIFY_CONCURRENCY, seconds: DURATION, warmup: WARMUP,
          beforeReports: async () => {
            notifyBaseline = await load(baselineSpec);
            jitReports = jitOf(arm)(); // the reports alone: their orders are made by then
          },
        });
        const notifyWarm = { warmupS: WARMUP, jitMs: sum(jitReports()) };
        if (arm.durability) durability.add(arm.durability);
        const slotsHeldTwice = await arm.slotsHeldTwice();
        log(`round ${round} ${name}: ${Math.round(notify.perSecond)} notifications/s (baseline ${Math.round(notifyBaseline.rps)}), p99 ${notify.p99.toFixed(1)} ms, ${notify.delivered}/${notify.matched} delivered, ${notify.failed} not matched, ${notify.repeats} repeats; slots held twice ${slotsHeldTwice}; JIT CPU ${notifyWarm.jitMs} ms`);
        const mem = await Promise.all(arm.pids.map((p) => rss(p)));
        runs.push({ arm: name, round, create, createBaseline, createCost, notify, notifyBaseline, notifyWarm, slotsHeldTwice, rss: mem.map((m) => m.peak) });
      } finally {
        await arm.stop();
        receiver.stop();
      }
    }
  }
  loadAt.push(loadAvg());
  console.log(render({
    runs, head, load: loadAt, seconds: (performance.now() - t0) / 1000,
    settings: `${CONNECTIONS} connections in all, ${DURATION} s per measurement after ${WARMUP} s warm-up (the creates: until the JIT has settled, at most ${WARMUP_CAP} s), ${ROUNDS} rounds, ${NOTIFY_CONCURRENCY} report senders, PostgreSQL ${!cluster ? "not run" : `${SYNCHRONOUS_COMMIT === "off" ? "with synchronous_commit off per database (as SQLite's WAL with synchronous = NORMAL)" : "with its durable defaults"} (${[...durability].join("; ")})`}`,
  }));
} finally {
  baselineProc.kill("SIGTERM");
  await cost?.close();
  cluster?.stop();
}
