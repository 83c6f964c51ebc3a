// bun bench/metrics.ts: what counting for /metrics costs native create. Two gateways on two
// seeded databases (bench/seed.ts), started exactly as operators run them, the same code: one
// counts (metrics_enabled 1, the default), the other was started with metrics_enabled 0 (the
// core's events go to a no-op). Native create is measured on each in turn, BENCH_ROUNDS pairs
// (default 5), the order swapped every round, so both see the same drift of this shared machine.
// Then the cost of one scrape of /metrics on the counting one.
// Env: BENCH_DURATION (s per measurement, default 8), BENCH_WARMUP (2), BENCH_ROUNDS (5).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, cpuTimes, DURATION, load, type LoadResult, pool, stealPct, waitHealthy, WARMUP, freePort } from "./lib.ts";
import { createBodies, createOk } from "./native.ts";
import { startReceiver } from "./notify.ts";
import { seed } from "./seed.ts";
import { openGateway } from "../src/server/bootstrap.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const log = (...a: unknown[]) => console.error("[metrics]", ...a);
const dir = mkdtempSync(join(tmpdir(), "xpay-metrics-bench-"));
const receiver = startReceiver();
const servers: ReturnType<typeof Bun.spawn>[] = [];

async function gateway(name: string, metricsEnabled: "0" | "1"): Promise<string> {
  const db = join(dir, `${name}.db`);
  await seed(db);
  const gw = openGateway({ db });
  await gw.store.setSetting("metrics_enabled", metricsEnabled);
  gw.store.close();
  const port = await freePort();
  servers.push(Bun.spawn([BUN, join(import.meta.dir, "../src/cli/main.ts"), "serve", "--port", String(port), "--log-format", "json"], {
    env: { ...process.env, XPAY_DB: db }, stdout: "ignore", stderr: "inherit",
  }));
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/healthz`);
  return url;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const on = await gateway("counting", "1");
  const off = await gateway("not-counting", "0");
  const perRun = (DURATION + WARMUP) * 12_000;
  const run = async (url: string, name: string, r: number): Promise<LoadResult> => {
    const bodies = pool(createBodies(perRun, `${name}${r}-${Date.now()}-`, receiver.url).bodies);
    const spec = { name, url, path: "/xpay/order/create", body: () => bodies.next(), ok: createOk };
    if (WARMUP > 0) await load({ ...spec, duration: WARMUP });
    return load(spec);
  };
  const rows: { round: number; on: LoadResult; off: LoadResult }[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const first = r % 2 === 1 ? "on" : "off";
    const a = await run(first === "on" ? on : off, first, r);
    const b = await run(first === "on" ? off : on, first === "on" ? "off" : "on", r);
    const row = { round: r, on: first === "on" ? a : b, off: first === "on" ? b : a };
    rows.push(row);
    log(`round ${r}: counting ${Math.round(row.on.rps)} req/s (p99 ${row.on.p99} ms), not counting ${Math.round(row.off.rps)} req/s (p99 ${row.off.p99} ms), ratio ${(row.on.rps / row.off.rps).toFixed(3)}`);
  }
  const cpu = cpuTimes();
  const scrapes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    bytes = (await (await fetch(`${on}/metrics`)).text()).length;
    scrapes.push(performance.now() - t);
  }
  const table = rows.map((x) => `| ${x.round} | ${Math.round(x.on.rps)} | ${x.on.p99} | ${Math.round(x.off.rps)} | ${x.off.p99} | ${(x.on.rps / x.off.rps).toFixed(3)} | ${x.on.steal.toFixed(0)} / ${x.off.steal.toFixed(0)} |`);
  console.log(
    `| round | counting req/s | p99 ms | not counting req/s | p99 ms | ratio | stolen CPU % |\n|---:|---:|---:|---:|---:|---:|---:|\n${table.join("\n")}\n` +
      `| median | ${Math.round(median(rows.map((x) => x.on.rps)))} | | ${Math.round(median(rows.map((x) => x.off.rps)))} | | ${median(rows.map((x) => x.on.rps / x.off.rps)).toFixed(3)} | |\n\n` +
      `/metrics scrape after the run (${bytes} bytes): median ${median(scrapes).toFixed(1)} ms, slowest ${Math.max(...scrapes).toFixed(1)} ms (stolen CPU ${stealPct(cpu, cpuTimes()).toFixed(0)} %)`,
  );
} finally {
  for (const s of servers) s.kill("SIGTERM");
  await Promise.all(servers.map((s) => s.exited));
  receiver.stop();
  rmSync(dir, { recursive: true, force: true });
}
