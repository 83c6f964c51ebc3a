// npm run bench: the gateway (bun src/cli/main.ts serve, worker included) on a temp database, a
// bare-Elysia baseline and a notification receiver, measured by autocannon in one run.
// Env: BENCH_DURATION (s per scenario, default 10), BENCH_WARMUP (s, default 2),
// BENCH_CONNECTIONS (default 64), BENCH_ACCOUNTS (default 16), BENCH_NOTIFY_CONCURRENCY (16).
import { cpus } from "node:os";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, CONNECTIONS, DURATION, freePort, load, type LoadResult, pool, rss, waitHealthy, WARMUP } from "./lib.ts";
import { createBodies, createOk, statusBodies } from "./native.ts";
import { v2CreateBodies, v2Ok } from "./epay-v2.ts";
import { infoBodies, infoOk } from "./template.ts";
import { notifyScenario, startReceiver } from "./notify.ts";
import { binaryStartup } from "./startup.ts";
import { seed } from "./seed.ts";

const root = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "xpay-bench-"));
const dbPath = join(dir, "xpay.db");
const log = (...a: unknown[]) => console.error("[bench]", ...a);
const t0 = performance.now();

const seeded = await seed(dbPath);
const receiver = startReceiver();

const port = await freePort();
const server = Bun.spawn([BUN, join(root, "src/cli/main.ts"), "serve", "--port", String(port), "--log-format", "json"], {
  env: { ...process.env, XPAY_DB: dbPath },
  stdout: "ignore", // the access log is still written (one line per request), to /dev/null
  stderr: "inherit",
});
const base = `http://127.0.0.1:${port}`;
await waitHealthy(`${base}/healthz`);

const baselineProc = Bun.spawn([BUN, join(import.meta.dir, "baseline-server.ts")], { stdout: "pipe", stderr: "inherit" });
const baselinePort = await firstLine(baselineProc.stdout).then(Number);
async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.trim();
}
const baselineUrl = `http://127.0.0.1:${baselinePort}`;

const results: LoadResult[] = [];
const rssAfter: Record<string, number> = {};
async function measure(spec: Parameters<typeof load>[0], warm?: Parameters<typeof load>[0]): Promise<LoadResult> {
  if (WARMUP > 0) await load({ ...(warm ?? spec), duration: WARMUP });
  const r = await load(spec);
  results.push(r);
  rssAfter[r.name] = (await rss(server.pid)).now;
  log(`${r.name}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms, ok ${r.ok}, failed ${r.failed}, errors ${r.errors}`);
  return r;
}

try {
  // 1. baseline
  await measure({ name: "baseline (bare Elysia)", url: baselineUrl, path: "/", body: () => "a=1" });

  // 2. native create: fresh out_trade_no and amount per request
  const perRun = (DURATION + WARMUP) * 8000;
  const warmCreates = pool(createBodies(WARMUP * 8000, `W${Date.now()}-`, receiver.url).bodies);
  const creates = createBodies(perRun, `N${Date.now()}-`, receiver.url);
  const createPool = pool(creates.bodies);
  const create = await measure(
    { name: "native order/create", url: base, path: "/xpay/order/create", body: () => createPool.next(), ok: createOk },
    { name: "warm", url: base, path: "/xpay/order/create", body: () => warmCreates.next(), ok: createOk },
  );
  if (createPool.wrapped) log(`create pool ran out ${createPool.wrapped}x: later answers were idempotent repeats`);

  // 3. native status over the orders just created
  const made = creates.outTradeNos.slice(0, Math.min(create.ok, 20_000));
  const statusPool = pool(statusBodies(made));
  await measure({ name: "native order/status", url: base, path: "/xpay/order/status", body: () => statusPool.next(), ok: createOk });

  // 4. epay V2 create: RSA verify of the request and RSA signature of the answer
  const signStart = performance.now();
  const v2Pool = pool(v2CreateBodies(Math.min((DURATION + WARMUP) * 700, 12_000), `V${Date.now()}-`, seeded.merchantPrivateKey, receiver.url));
  log(`signed the epay V2 bodies in ${Math.round(performance.now() - signStart)} ms`);
  await measure({ name: "epay V2 create (RSA)", url: base, path: "/xpay/epayn/api/pay/create", body: () => v2Pool.next(), ok: v2Ok });
  if (v2Pool.wrapped) log(`epay V2 pool ran out ${v2Pool.wrapped}x: later answers were idempotent repeats (still verified and signed)`);

  // 5. template info by order_id
  const { Database } = await import("bun:sqlite");
  const db = new Database(dbPath, { readonly: true });
  const tradeNos = (db.query("SELECT trade_no FROM orders WHERE status = 1 LIMIT 20000").all() as { trade_no: string }[]).map((r) => r.trade_no);
  db.close();
  const infoPool = pool(infoBodies(tradeNos));
  await measure({ name: "template api/order/info", url: base, path: "/api/order/info", body: () => infoPool.next(), ok: infoOk });

  // 6. report -> paid -> notification
  const notify = await notifyScenario({
    server: base, db: dbPath, receiver, orders: Number(process.env.BENCH_NOTIFY_ORDERS ?? DURATION * 500),
    concurrency: Number(process.env.BENCH_NOTIFY_CONCURRENCY ?? 16), seconds: DURATION,
  });
  log("notify:", notify);

  // 7. memory and binary start-up
  const mem = await rss(server.pid);
  server.kill("SIGTERM");
  await server.exited;
  const start = await binaryStartup(5);

  const baseline = results[0]!;
  const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : "-");
  const lines = [
    `xpay bench ${new Date().toISOString()}: ${cpus().length} x ${cpus()[0]?.model ?? "?"}, Bun ${Bun.version}, ${CONNECTIONS} connections, ${DURATION} s per scenario after ${WARMUP} s warm-up; client and server share the cores`,
    "",
    "| scenario | req/s | p50 ms | p99 ms | vs baseline | ok | failed | errors |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...results.map((r) => `| ${r.name} | ${fmt(r.rps)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${fmt((100 * r.rps) / baseline.rps, 1)}% | ${r.ok} | ${r.failed} | ${r.errors} |`),
    "",
    `| report -> paid -> notification | ${fmt(notify.perSecond)} notifications/s | p50 ${fmt(notify.p50, 1)} ms | p99 ${fmt(notify.p99, 1)} ms | max ${fmt(notify.max, 1)} ms | ${notify.delivered}/${notify.matched} delivered | ${notify.failed} reports not matched | report answer p99 ${fmt(notify.reportP99, 1)} ms |`,
    "",
    `server peak RSS (VmHWM) ${fmt(mem.peak, 1)} MiB; RSS after each scenario: ${Object.entries(rssAfter).filter(([k]) => !k.startsWith("baseline")).map(([k, v]) => `${k} ${fmt(v, 1)}`).join(", ")} MiB`,
    `binary start-up (spawn -> /healthz 200, existing database) median ${fmt(start.median, 1)} ms of ${start.samples.map((s) => fmt(s, 1)).join(", ")}${start.built ? " (dist/xpay built for this run)" : ""}`,
    "",
    `targets: native create >= 25% of baseline: ${create.rps / baseline.rps >= 0.25 ? "met" : "NOT met"} (${fmt((100 * create.rps) / baseline.rps, 1)}%); create p99 < 20 ms: ${create.p99 < 20 ? "met" : "NOT met"} (${create.p99} ms); notification p99 < 100 ms: ${notify.p99 < 100 ? "met" : "NOT met"} (${fmt(notify.p99, 1)} ms)`,
    `whole run ${fmt((performance.now() - t0) / 1000, 0)} s`,
  ];
  console.log(lines.join("\n"));
} finally {
  server.kill("SIGTERM");
  baselineProc.kill("SIGTERM");
  receiver.stop();
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}
