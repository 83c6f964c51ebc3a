// bun bench/server-cpu.ts [CHECKOUT ...]: CPU time the gateway's process spends per native create
// over HTTP (every thread: the HTTP server, the notifier, the checkpoint thread), against the CPU
// time the bare-Elysia baseline process spends per request, measured alternately in the same run.
// The create's share of the baseline's throughput cannot exceed the ratio of the two when the
// server is what binds, and CPU time moves far less with the machine's other load than request
// rates do, so this is the figure to compare while other work runs. Given checkouts (this one by
// default; they need node_modules, a symlink will do) are measured in turn each round on a fresh
// database of their own, their order reversed every other round; each round reports creates/s, p99
// and CPU stolen too. BENCH_PROFILE=DIR writes each gateway's CPU profile (markdown) there.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createBodies, createOk } from "./native.ts";
import { load, pool, WARMUP } from "./lib.ts";
import { startRig } from "./rig.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TICK = 100; // USER_HZ on Linux
const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) roots.push(resolve(import.meta.dir, ".."));

/** utime + stime of a process (all its threads), in µs. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICK;
}

async function perRequest<T extends { ok: number }>(pid: number, run: () => Promise<T>) {
  const before = cpuMicros(pid);
  const r = await run();
  return { ...r, cpu: (cpuMicros(pid) - before) / Math.max(1, r.ok) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
const byRoot = new Map(roots.map((r) => [r, { cpu: [] as number[], rps: [] as number[], p99: [] as number[], ratio: [] as number[] }]));
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? roots : [...roots].reverse();
  for (const root of order) {
    const rig = await startRig("xpay-server-cpu-", root);
    try {
      const bodies = pool(createBodies(200_000, `S${r}-${Date.now()}-`, rig.receiver.url).bodies);
      const spec = { name: "create", url: rig.gateway, path: "/xpay/order/create", body: () => bodies.next(), ok: createOk };
      if (WARMUP > 0) await load({ ...spec, duration: WARMUP });
      const base = await perRequest(rig.baselinePid, () => load({ name: "baseline", url: rig.baseline, path: "/", body: () => "a=1" }));
      const create = await perRequest(rig.server.pid as number, () => load(spec));
      if (bodies.wrapped) console.error("create pool ran out: later answers were idempotent repeats");
      const m = byRoot.get(root)!;
      m.cpu.push(create.cpu);
      m.rps.push(create.rps);
      m.p99.push(create.p99);
      m.ratio.push(create.rps / base.rps);
      rows.push(`| ${r + 1} | ${root} | ${base.cpu.toFixed(1)} | ${Math.round(base.rps)} | ${create.cpu.toFixed(1)} | ${Math.round(create.rps)} | ${((100 * create.rps) / base.rps).toFixed(1)} % | ${create.p99} | ${create.failed + create.errors} | ${base.steal.toFixed(1)} / ${create.steal.toFixed(1)} % |`);
    } finally {
      await rig.stop();
    }
  }
}
console.log(`xpay bench:server-cpu ${new Date().toISOString()}: server CPU per request (all threads, /proc), 64 connections, ${ROUNDS} rounds`);
console.log("\n| round | checkout | baseline µs/request | baseline req/s | create µs/create | creates/s | vs baseline | create p99 ms | failed | CPU stolen (baseline / create) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) console.log(row);
console.log("");
for (const [root, m] of byRoot) {
  console.log(`${root}: median ${median(m.cpu).toFixed(1)} µs of server CPU per create, ${Math.round(median(m.rps))} creates/s, ${(100 * median(m.ratio)).toFixed(1)} % of the baseline, p99 ${median(m.p99)} ms`);
}
