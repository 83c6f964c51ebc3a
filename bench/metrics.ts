// bun bench/metrics.ts: what issue 18 costs native create. Three gateways on three seeded
// databases (bench/seed.ts), started exactly as operators run them, the same code: "counting"
// (metrics_enabled 1, the default), "not counting" (started with metrics_enabled 0: the core's
// events go to a no-op), and "before" (not counting, and the two indexes migration 010 adds to
// the create path dropped: what a create cost before the stats). Native create is measured on
// each in turn, BENCH_ROUNDS rounds (default 5), the order rotated every round, so all see the
// same drift of this shared machine. Then the cost of one scrape of /metrics on the counting one.
// Env: BENCH_DURATION (s per measurement, default 8), BENCH_WARMUP (2), BENCH_ROUNDS (5).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, cpuTimes, DURATION, load, type LoadResult, pool, stealPct, waitHealthy, WARMUP, freePort } from "./lib.ts";
import { createBodies, createOk } from "./native.ts";
import { startReceiver } from "./notify.ts";
import { seed } from "./seed.ts";
import { Database } from "bun:sqlite";
import { openGateway } from "../src/server/bootstrap.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const log = (...a: unknown[]) => console.error("[metrics]", ...a);
const dir = mkdtempSync(join(tmpdir(), "xpay-metrics-bench-"));
const receiver = startReceiver();
const servers: ReturnType<typeof Bun.spawn>[] = [];

async function gateway(name: string, metricsEnabled: "0" | "1", dropStatsIndexes = false): Promise<string> {
  const db = join(dir, `${name}.db`);
  await seed(db);
  const gw = openGateway({ db });
  await gw.store.setSetting("metrics_enabled", metricsEnabled);
  gw.store.close();
  if (dropStatsIndexes) {
    const raw = new Database(db);
    // What a create wrote for the stats: the created index, and since migration 025 the rollup triggers.
    raw.exec("DROP INDEX orders_created_stats; DROP TRIGGER order_rollup_insert;");
    raw.close();
  }
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
  const urls = { counting: await gateway("counting", "1"), "not counting": await gateway("not-counting", "0"), before: await gateway("before", "0", true) };
  const names = Object.keys(urls) as (keyof typeof urls)[];
  const perRun = (DURATION + WARMUP) * 12_000;
  const run = async (name: keyof typeof urls, r: number): Promise<LoadResult> => {
    const bodies = pool(createBodies(perRun, `${name.replace(" ", "")}${r}-${Date.now()}-`, receiver.url).bodies);
    const spec = { name, url: urls[name], path: "/xpay/order/create", body: () => bodies.next(), ok: createOk };
    if (WARMUP > 0) await load({ ...spec, duration: WARMUP });
    return load(spec);
  };
  const rows: Record<keyof typeof urls, LoadResult>[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const row = {} as Record<keyof typeof urls, LoadResult>;
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      row[name] = await run(name, r);
    }
    rows.push(row);
    log(`round ${r + 1}: ${names.map((n) => `${n} ${Math.round(row[n].rps)} req/s (p99 ${row[n].p99} ms, stolen ${row[n].steal.toFixed(0)} %)`).join(", ")}`);
  }
  const on = urls.counting;
  const cpu = cpuTimes();
  const scrapes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    bytes = (await (await fetch(`${on}/metrics`)).text()).length;
    scrapes.push(performance.now() - t);
  }
  const ratio = (x: Record<keyof typeof urls, LoadResult>, a: keyof typeof urls, b: keyof typeof urls) => x[a].rps / x[b].rps;
  const table = rows.map((x, i) =>
    `| ${i + 1} | ${names.map((n) => `${Math.round(x[n].rps)} (${x[n].p99})`).join(" | ")} | ${ratio(x, "counting", "not counting").toFixed(3)} | ${ratio(x, "not counting", "before").toFixed(3)} | ${ratio(x, "counting", "before").toFixed(3)} | ${names.map((n) => x[n].steal.toFixed(0)).join(" / ")} |`);
  const med = (f: (x: Record<keyof typeof urls, LoadResult>) => number) => median(rows.map(f));
  console.log(
    `| round | ${names.map((n) => `${n} req/s (p99 ms)`).join(" | ")} | counting / not | not / before | counting / before | stolen CPU % |\n|---:|${names.map(() => "---:").join("|")}|---:|---:|---:|---:|\n${table.join("\n")}\n` +
      `| median | ${names.map((n) => Math.round(med((x) => x[n].rps))).join(" | ")} | ${med((x) => ratio(x, "counting", "not counting")).toFixed(3)} | ${med((x) => ratio(x, "not counting", "before")).toFixed(3)} | ${med((x) => ratio(x, "counting", "before")).toFixed(3)} | |\n\n` +
      `/metrics scrape after the run (${bytes} bytes): median ${median(scrapes).toFixed(1)} ms, slowest ${Math.max(...scrapes).toFixed(1)} ms (stolen CPU ${stealPct(cpu, cpuTimes()).toFixed(0)} %)`,
  );
} finally {
  for (const s of servers) s.kill("SIGTERM");
  await Promise.all(servers.map((s) => s.exited));
  receiver.stop();
  rmSync(dir, { recursive: true, force: true });
}
