// npm run bench:wrk: the native create target measured by wrk (Debian's `wrk`, C; BENCH_WRK_THREADS, 2)
// instead of autocannon, against the same bare-Elysia baseline, in BENCH_ROUNDS pairs. autocannon
// runs in JavaScript on the same two cores and tops out near 25-35 000 req/s, so it is what the
// baseline of `npm run bench` measures; wrk shows how fast the bare route really is here.
// Not part of CI (wrk is not an npm package): `apt-get install wrk` first.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONNECTIONS, cpuTimes, DURATION, stealPct, WARMUP } from "./lib.ts";
import { createBodies } from "./native.ts";
import { median } from "./report.ts";
import { startRig } from "./rig.ts";

if (!Bun.which("wrk")) {
  console.error("bench:wrk needs wrk (Debian: apt-get install wrk); npm run bench needs nothing else");
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const THREADS = Number(process.env.BENCH_WRK_THREADS ?? 2);
const rig = await startRig("xpay-wrk-");

interface WrkResult { steal: number; rps: number; p50: number; p99: number; requests: number; failed: number; wrapped: number; errors: number }

function wrk(url: string, path: string, bodies: string[], seconds: number): WrkResult {
  const file = join(rig.dir, "bodies.txt");
  writeFileSync(file, bodies.join("\n") + "\n");
  const before = cpuTimes();
  const r = Bun.spawnSync(["wrk", `-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "-s", join(import.meta.dir, "wrk-post.lua"), url, "--", path, file, '{"code":200', String(THREADS)], { stdout: "pipe", stderr: "pipe" });
  const line = /RESULT (.*)/.exec(r.stdout.toString())?.[1];
  if (!line) throw new Error(`wrk printed no result: ${r.stderr.toString() || r.stdout.toString()}`);
  const o = Object.fromEntries(line.split(" ").map((kv) => [kv.split("=")[0]!, Number(kv.split("=")[1])]));
  return { steal: stealPct(before, cpuTimes()), rps: o.requests! / (o.duration_us! / 1e6), p50: o.p50_us! / 1000, p99: o.p99_us! / 1000, requests: o.requests!, failed: o.failed!, wrapped: o.wrapped!, errors: o.errors! };
}

try {
  const { gateway: gw, baseline: baseUrl, receiver } = rig;
  const rows: { base: WrkResult; create: WrkResult }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // at most ~15 000 creates/s are expected here; the pool is sized so no body repeats
    if (WARMUP > 0) wrk(gw, "/xpay/order/create", createBodies(WARMUP * 15_000, `WW${r}-${Date.now()}-`, receiver.url).bodies, WARMUP);
    const base = wrk(baseUrl, "/", ["a=1"], DURATION);
    const create = wrk(gw, "/xpay/order/create", createBodies(DURATION * 15_000, `WN${r}-${Date.now()}-`, receiver.url).bodies, DURATION);
    if (create.wrapped) console.error(`[bench:wrk] round ${r + 1}: the pool of bodies ran out; later answers were idempotent repeats`);
    rows.push({ base, create });
    console.error(`[bench:wrk] round ${r + 1}: baseline ${Math.round(base.rps)} req/s, create ${Math.round(create.rps)} req/s, p99 ${create.p99} ms`);
  }
  const f = (n: number, d = 0) => n.toFixed(d);
  console.log([
    `xpay bench:wrk ${new Date().toISOString()}: wrk -t${THREADS} -c${CONNECTIONS}, ${DURATION} s per measurement after ${WARMUP} s warm-up, ${ROUNDS} rounds`,
    "",
    "| round | baseline req/s | baseline p99 ms | native create req/s | p50 ms | p99 ms | vs baseline | failed | errors | CPU stolen (baseline / create) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(({ base: b, create: c }, i) => `| ${i + 1} | ${f(b.rps)} | ${f(b.p99, 1)} | ${f(c.rps)} | ${f(c.p50, 1)} | ${f(c.p99, 1)} | ${f((100 * c.rps) / b.rps, 1)}% | ${c.failed} | ${b.errors + c.errors} | ${f(b.steal, 1)}% / ${f(c.steal, 1)}% |`),
    "",
    `median: baseline ${f(median(rows.map((x) => x.base.rps)))} req/s, create ${f(median(rows.map((x) => x.create.rps)))} req/s, ratio ${f(100 * median(rows.map((x) => x.create.rps / x.base.rps)), 1)}%, create p99 ${f(median(rows.map((x) => x.create.p99)), 1)} ms`,
  ].join("\n"));
} finally {
  await rig.stop();
}
