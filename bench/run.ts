// npm run bench: the gateway (bun src/cli/main.ts serve, worker included) on a temp database, a
// bare-Elysia baseline and a notification receiver, measured by autocannon in one run. The
// machine is shared and its speed drifts, so every scenario is measured right after a baseline
// run of its own, and native create (the target) in BENCH_ROUNDS such pairs.
// Env: BENCH_DURATION (s per measurement, default 8), BENCH_WARMUP (s, default 2), BENCH_ROUNDS (3),
// BENCH_CONNECTIONS (64), BENCH_ACCOUNTS (16), BENCH_NOTIFY_CONCURRENCY (16), BENCH_NOTIFY_ORDERS.
import { CONNECTIONS, cpuTimes, DURATION, load, type LoadResult, type LoadSpec, pool, rss, stealPct, WARMUP } from "./lib.ts";
import { createBodies, createOk, statusBodies } from "./native.ts";
import { mapiBodies, mapiOk } from "./epay-v1.ts";
import { v2CreateBodies, v2Ok } from "./epay-v2.ts";
import { hashCreateBodies, hashOk } from "./hashpay.ts";
import { infoBodies, infoOk } from "./template.ts";
import { notifyScenario } from "./notify.ts";
import { type Pair, render } from "./report.ts";
import { startRig } from "./rig.ts";
import { binaryStartup } from "./startup.ts";
import { PUBLIC_TRADE_NO_SQL } from "../src/store/trade-no.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const log = (...a: unknown[]) => console.error("[bench]", ...a);
const t0 = performance.now();

const rig = await startRig("xpay-bench-");
const { dbPath, seeded, receiver, server, gateway: base } = rig;
const baselineSpec: LoadSpec = { name: "baseline (bare Elysia)", url: rig.baseline, path: "/", body: () => "a=1" };

const pairs: Pair[] = [];
const rssAfter: Record<string, number> = {};
/** Warm-up of the scenario, then the baseline, then the scenario: the ratio is of runs seconds apart. */
async function paired(spec: LoadSpec, warm: LoadSpec = spec): Promise<Pair> {
  if (WARMUP > 0) await load({ ...warm, duration: WARMUP });
  const pair = { baseline: await load(baselineSpec), result: await load(spec) };
  pairs.push(pair);
  rssAfter[spec.name] = (await rss(server.pid)).now;
  log(`${spec.name}: ${Math.round(pair.result.rps)} req/s, p99 ${pair.result.p99} ms, ok ${pair.result.ok}, failed ${pair.result.failed}, errors ${pair.result.errors}; baseline ${Math.round(pair.baseline.rps)} req/s`);
  return pair;
}

try {
  if (WARMUP > 0) await load({ ...baselineSpec, duration: WARMUP });

  // native create, ROUNDS times: fresh out_trade_no and amount per request
  const perRun = (DURATION + WARMUP) * 12_000;
  const creates: Pair[] = [];
  const made: string[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const warm = pool(createBodies(WARMUP * 12_000, `W${r}-${Date.now()}-`, receiver.url).bodies);
    const bodies = createBodies(perRun, `N${r}-${Date.now()}-`, receiver.url);
    const p = pool(bodies.bodies);
    const name = `native order/create, round ${r + 1}`;
    const pair = await paired(
      { name, url: base, path: "/xpay/order/create", body: () => p.next(), ok: createOk },
      { name: "warm", url: base, path: "/xpay/order/create", body: () => warm.next(), ok: createOk },
    );
    if (p.wrapped) log(`create pool ran out ${p.wrapped}x: later answers were idempotent repeats`);
    creates.push(pair);
    if (made.length < 20_000) made.push(...bodies.outTradeNos.slice(0, Math.min(pair.result.ok, 20_000 - made.length)));
  }

  const statusPool = pool(statusBodies(made));
  await paired({ name: "native order/status", url: base, path: "/xpay/order/status", body: () => statusPool.next(), ok: createOk });

  // epay V1 mapi.php and the hash protocol's create: the same order as the native create behind
  // another codec (MD5 over sorted fields; the hash protocol's answer signed too)
  const mapiPool = pool(mapiBodies(perRun, `M${Date.now()}-`, receiver.url));
  await paired({ name: "epay V1 mapi.php create", url: base, path: "/xpay/epay/mapi.php", body: () => mapiPool.next(), ok: mapiOk });
  const hashPool = pool(hashCreateBodies(perRun, `H${Date.now()}-`, receiver.url));
  await paired({ name: "hash protocol create", url: base, path: "/xpay/hashpay/payment/do.html", body: () => hashPool.next(), ok: hashOk });

  // epay V2 create: RSA verify of the request and RSA signature of the answer
  const signStart = performance.now();
  const v2Pool = pool(v2CreateBodies(Math.min((DURATION + WARMUP) * 700, 12_000), `V${Date.now()}-`, seeded.merchantPrivateKey, receiver.url));
  log(`signed the epay V2 bodies in ${Math.round(performance.now() - signStart)} ms`);
  await paired({ name: "epay V2 create (RSA)", url: base, path: "/xpay/epayn/api/pay/create", body: () => v2Pool.next(), ok: v2Ok });
  if (v2Pool.wrapped) log(`epay V2 pool ran out ${v2Pool.wrapped}x: later answers were idempotent repeats (still verified and signed)`);

  const { Database } = await import("bun:sqlite");
  const db = new Database(dbPath, { readonly: true });
  const tradeNos = (db.query(`SELECT ${PUBLIC_TRADE_NO_SQL} AS trade_no FROM orders WHERE status = 1 LIMIT 20000`).all() as { trade_no: string }[]).map((r) => r.trade_no);
  db.close();
  const infoPool = pool(infoBodies(tradeNos));
  await paired({ name: "template api/order/info", url: base, path: "/api/order/info", body: () => infoPool.next(), ok: infoOk });

  const peakBeforeNotify = (await rss(server.pid)).peak;
  // As every other scenario: its warm-up, then the baseline, then the measured reports.
  let notifyBaseline: LoadResult | undefined;
  let notifyCpu = cpuTimes();
  const notify = await notifyScenario({
    server: base, db: dbPath, receiver, orders: Number(process.env.BENCH_NOTIFY_ORDERS ?? DURATION * 3000),
    concurrency: Number(process.env.BENCH_NOTIFY_CONCURRENCY ?? 16), seconds: DURATION, warmup: WARMUP,
    beforeReports: async () => {
      notifyBaseline = await load(baselineSpec);
      notifyCpu = cpuTimes();
    },
  });
  const notifySteal = stealPct(notifyCpu, cpuTimes());
  log("notify:", notify);

  const mem = await rss(server.pid);
  server.kill("SIGTERM");
  await server.exited;
  const startup = await binaryStartup(5);

  console.log(render({
    settings: `${CONNECTIONS} connections, ${DURATION} s per measurement after ${WARMUP} s warm-up, ${ROUNDS} create rounds`,
    pairs, creates, notify, notifySteal, notifyBaseline: notifyBaseline!, peakRss: mem.peak, peakBeforeNotify, rssAfter, startup, seconds: (performance.now() - t0) / 1000,
  }));
} finally {
  await rig.stop();
}
