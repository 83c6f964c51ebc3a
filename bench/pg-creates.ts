// Creates per second through the PostgreSQL store alone (no HTTP), with what each create costs:
// one or two store instances (two connection pools, as two xpay processes have) on one database,
// N accounts of one pay type, 32 creates in flight. Per setup: creates/s, CPU steal, PostgreSQL's
// CPU per create (/proc), the application's (this process: the core's unit and the store), WAL
// bytes, records, full-page images and flushes per create, the flush time, the create statement's
// pg_stat_statements line (calls, mean time, rows; with batches, one call per batch) and its time per
// create, the lock hold per create (from the account's lock to the function's end: in a batch, to
// the batch's end; the commit follows), units per batch with the busy, alone and careful counts
// (src/store/postgres/create-batch.ts), and the slots held twice (must be 0).
// `bun bench/pg-creates.ts [seconds]`. XPAY_PG_CREATE_BATCHES (batches in flight per store) is read
// by every checkout that has batches. The stores here share this process's connection name, so
// they count as one instance in call-share.ts and each sends two batches, as before it.
// Env: XPAY_ROOTS=/a,/b (checkouts alternated in each round, ratios against the first; XPAY_ROOT
// alone is one), BENCH_PG_ROUNDS (2), BENCH_PG_ACCOUNTS (16,64), BENCH_PG_INSTANCES (1,2),
// BENCH_PG_INFLIGHT (32), BENCH_PG_WARMUP (2: seconds of creates before ANALYZE), BENCH_PG_NESTED=1 (below each
// setup's line, the statements the functions and triggers ran: calls and µs per create), BENCH_PLANS=1 (below it too,
// the statements PostgreSQL planned: plans / calls, pg_stat_statements with track_planning), PG_DURABLE=0 (fsync off, to see the locks rather than the disk).
import { join } from "node:path";
import { SQL } from "bun";
import { startCluster } from "../test/pg/cluster.ts";
import { cpuTimes, stealPct } from "./lib.ts";
import { costReader, COST_SETTINGS, serverCpuMs } from "./pg-cost.ts";

const here = join(import.meta.dir, "..");
const roots = (process.env.XPAY_ROOTS ?? process.env.XPAY_ROOT ?? here).split(",");
const seconds = Number(process.argv[2] ?? 5);
const ROUNDS = Number(process.env.BENCH_PG_ROUNDS ?? 2);
const list = (v: string | undefined, d: string) => (v ?? d).split(",").map(Number);
const ACCOUNTS = list(process.env.BENCH_PG_ACCOUNTS, "16,64");
const INSTANCES = list(process.env.BENCH_PG_INSTANCES, "1,2");
const INFLIGHT = Number(process.env.BENCH_PG_INFLIGHT ?? 32);
const WARMUP = Number(process.env.BENCH_PG_WARMUP ?? 2);
const NESTED = process.env.BENCH_PG_NESTED === "1";
const PLANS = process.env.BENCH_PLANS === "1";

interface Checkout {
  root: string;
  PostgresStore: { open(url: string, o: { max: number }): unknown };
  h: typeof import("../test/store-contract/harness.ts");
  /** the create function's lock hold counters (absent before it) */
  hold?: { creates: number; micros: number };
  /** the batched create's counters (absent before it) */
  batches?: { batches: number; units: number; busy: number; alone: number; careful?: number };
}

async function checkout(root: string): Promise<Checkout> {
  const { PostgresStore } = await import(join(root, "src/store/postgres/index.ts"));
  const h = await import(join(root, "test/store-contract/harness.ts"));
  const hold = await import(join(root, "src/store/postgres/create.ts")).then((m) => m.lockHold, () => undefined);
  const batches = await import(join(root, "src/store/postgres/create-batch.ts")).then((m) => m.batchStats, () => undefined);
  return { root, PostgresStore, h, hold, batches };
}

const HELD_TWICE = `SELECT count(*) AS n FROM (SELECT COALESCE(NULLIF(a.report_group, 0), a.id) g, o.trade_amount FROM orders o JOIN channel_accounts a ON a.id = o.account_id
  WHERE o.status = 1 GROUP BY 1, 2 HAVING count(*) > 1) t`;

const cluster = await startCluster({ durable: process.env.PG_DURABLE !== "0", settings: PLANS ? { ...COST_SETTINGS, "pg_stat_statements.track_planning": "on" } : COST_SETTINGS });
const cost = await costReader(cluster.url("postgres"));
const checkouts = await Promise.all(roots.map(checkout));
type Store = { createOrder(u: unknown): Promise<{ kind: string; order?: { status: number } }>; end(): Promise<void> };
const results: string[] = [];
let n = 0;

async function measure(c: Checkout, instances: number, accounts: number, round: number): Promise<number> {
  const name = `c${++n}`;
  const url = await cluster.createDatabase(name);
  const stores = Array.from({ length: instances }, () => c.PostgresStore.open(url, { max: 16 }) as Store);
  await c.h.merchant(stores[0] as never);
  for (let i = 0; i < accounts; i++) await c.h.account(stores[0] as never);
  const createOne = (w: number) => stores[w % instances]!.createOrder(c.h.createUnit(c.h.newOrder({ amount: 1000 + Math.floor(Math.random() * 9000) }), { policy: { maxOffset: 50 } }));
  await Promise.all(Array.from({ length: INFLIGHT }, (_, w) => createOne(w))); // connections open
  // Orders before the statistics (BENCH_PG_WARMUP seconds of creates, as bench:pg's warm-up): with
  // the table analyzed at 64 orders, the function's generic plans for the slot search, the
  // out_trade_no lookup and the trade_no check took 0.60, 0.27 and 0.22 ms each as the table grew
  // (0.009, 0.004 and 0.005 through bench:pg), and the bench measured that (1.3 ms a create, 2026-11-29).
  const warmUntil = performance.now() + WARMUP * 1000;
  await Promise.all(Array.from({ length: INFLIGHT }, async (_, w) => { while (performance.now() < warmUntil) await createOne(w); }));
  // Statistics, as autovacuum gathers them within a minute of a real database's first orders (and
  // the plans made before them are made again): on the empty table, the out_trade_no lookup's
  // generic plan read every order of the merchant.
  const analyze = new SQL(url, { max: 1 });
  await analyze`ANALYZE`;
  await analyze.close();
  await Promise.all(Array.from({ length: INFLIGHT }, (_, w) => createOne(w))); // plans cached
  await cost.reset();
  const before = { cpu: cpuTimes(), pg: serverCpuMs(cluster.dataDir), app: process.cpuUsage(), wal: await cost.wal(), hold: { ...(c.hold ?? { creates: 0, micros: 0 }) }, batches: { ...(c.batches ?? { batches: 0, units: 0, busy: 0, alone: 0 }) } };
  // careful: batches that ran each unit in a subtransaction of its own (migration 044; absent before it)
  let made = 0;
  let failed = 0;
  let waitedMs = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async (w: number) => {
    while (performance.now() < until) {
      const t = performance.now();
      const r = await createOne(w);
      waitedMs += performance.now() - t;
      if (r.kind === "created" && r.order?.status === 1) made++;
      else failed++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: INFLIGHT }, (_, w) => worker(w)));
  const elapsed = (performance.now() - t0) / 1000;
  const wal = await cost.wal();
  const app = process.cpuUsage(before.app);
  const pgMs = serverCpuMs(cluster.dataDir) - before.pg;
  const steal = stealPct(before.cpu, cpuTimes());
  const walBytes = await cost.walBytes(before.wal.lsn, wal.lsn);
  const nested = NESTED ? await cost.statements(name, 20, true) : [];
  const planned = PLANS ? await cost.plans(name, 8) : [];
  const top = (await cost.statements(name)).find((s) => /xpay_create_orders?\(|INSERT INTO orders/.test(s.query));
  const look = new SQL(url, { max: 1 });
  const heldTwice = Number(((await look.unsafe(HELD_TWICE)) as { n: number }[])[0]!.n);
  await look.close();
  const b = c.batches ? { batches: c.batches.batches - before.batches.batches, units: c.batches.units - before.batches.units, busy: c.batches.busy - before.batches.busy, alone: c.batches.alone - before.batches.alone, careful: c.batches.careful === undefined ? "-" : c.batches.careful - (before.batches.careful ?? 0) } : null;
  const hold = c.hold ? { creates: c.hold.creates - before.hold.creates, micros: c.hold.micros - before.hold.micros } : null;
  await Promise.all(stores.map((s) => s.end()));
  const rate = made / elapsed;
  const per = (v: number, d = 2) => (made ? (v / made).toFixed(d) : "-");
  const syncs = wal.syncs - before.wal.syncs;
  results.push(
    `| ${round} | ${c.root === here ? "this checkout" : c.root} | ${instances} | ${accounts} | ${Math.round(rate)} | ${steal.toFixed(1)} % | ${failed} | ${heldTwice} ` +
      `| ${per(pgMs, 3)} | ${per((app.user + app.system) / 1000, 3)} | ${per(walBytes, 0)} | ${per(wal.records - before.wal.records, 1)} | ${per(wal.fpi - before.wal.fpi, 2)} ` +
      `| ${per(syncs, 3)} | ${syncs ? ((wal.syncMs - before.wal.syncMs) / syncs).toFixed(2) : "-"} | ${top ? `${top.calls} / ${top.meanMs.toFixed(3)} / ${top.rows}` : "-"} | ${top ? per(top.calls * top.meanMs, 3) : "-"} ` +
      `| ${hold?.creates ? (hold.micros / hold.creates).toFixed(0) : "-"} | ${(waitedMs / (made + failed)).toFixed(2)} | ${b?.batches ? `${(b.units / b.batches).toFixed(1)} / ${b.busy} / ${b.alone} / ${b.careful}` : "-"} |`,
  );
  for (const p of planned) results.push(`|   planned | ${p.plans} / ${p.calls} | ${(p.meanPlanMs * 1000).toFixed(1)} µs a plan | ${p.toplevel ? "" : "(nested) "}${p.query} |`);
  for (const st of nested) results.push(`|   nested | ${(st.calls / made).toFixed(2)} calls/create | ${(st.totalMs / made * 1000).toFixed(1)} µs/create | ${(st.meanMs * 1000).toFixed(1)} µs/call | ${st.query} |`);
  console.error(`[pg-creates] round ${round} ${c.root} ${instances} instance(s), ${accounts} accounts: ${Math.round(rate)} creates/s, steal ${steal.toFixed(1)} %, failed ${failed}, held twice ${heldTwice}`);
  return rate;
}

try {
  for (let round = 1; round <= ROUNDS; round++) {
    // alternated: the checkout measured first in one round is measured last in the next
    const order = round % 2 ? checkouts : [...checkouts].reverse();
    for (const accounts of ACCOUNTS) for (const instances of INSTANCES) for (const c of order) await measure(c, instances, accounts, round);
  }
  console.log(`PostgreSQL ${process.env.PG_DURABLE === "0" ? "fsync off" : "durable defaults"}, ${INFLIGHT} creates in flight, ${seconds} s per setup, 16 connections per instance, max_offset 50`);
  console.log("| round | checkout | instances | accounts | creates/s | steal | failed | slots held twice | PostgreSQL CPU ms/create | app CPU ms/create | WAL bytes/create | WAL records/create | full-page images/create | WAL flushes/create | ms/flush | create statement: calls / mean ms / rows | statement ms/create | lock hold µs (to the function's end) | client ms/create | units/batch / busy / alone / careful batches |");
  console.log(`|${"---|".repeat(20)}`);
  for (const r of results) console.log(r);
} finally {
  await cost.close();
  cluster.stop();
}
