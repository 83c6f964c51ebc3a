// bun bench/server-cpu.ts: CPU time the gateway's process spends per native create over HTTP
// (every thread: the HTTP server, the notifier, the checkpoint thread), against the CPU time the
// bare-Elysia baseline process spends per request, measured alternately in the same run. The
// create's share of the baseline's throughput cannot exceed the ratio of the two when the server is
// what binds, and CPU time moves far less with the machine's other load than request rates do, so
// this is the figure to compare while other work runs. BENCH_PROFILE=DIR writes the gateway's CPU
// profile (markdown) there.
import { readFileSync } from "node:fs";
import { createBodies, createOk } from "./native.ts";
import { load, pool, WARMUP } from "./lib.ts";
import { startRig } from "./rig.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TICK = 100; // USER_HZ on Linux

/** utime + stime of a process (all its threads), in µs. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICK;
}

async function perRequest(pid: number, run: () => Promise<{ ok: number; failed: number; errors: number; rps: number; p99: number }>) {
  const before = cpuMicros(pid);
  const r = await run();
  return { ...r, cpu: (cpuMicros(pid) - before) / Math.max(1, r.ok) };
}

const rig = await startRig("xpay-server-cpu-");
try {
  const baselineSpec = { name: "baseline", url: rig.baseline, path: "/", body: () => "a=1" };
  const rows: string[] = [];
  const creates: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const bodies = pool(createBodies(160_000, `S${r}-${Date.now()}-`, rig.receiver.url).bodies);
    const spec = { name: "create", url: rig.gateway, path: "/xpay/order/create", body: () => bodies.next(), ok: createOk };
    if (WARMUP > 0) await load({ ...spec, duration: WARMUP });
    const base = await perRequest(rig.baselinePid, () => load(baselineSpec));
    const create = await perRequest(rig.server.pid as number, () => load(spec));
    if (bodies.wrapped) console.error("create pool ran out: later answers were idempotent repeats");
    creates.push(create.cpu);
    ratios.push(base.cpu / create.cpu);
    rows.push(`| ${r + 1} | ${base.cpu.toFixed(1)} | ${Math.round(base.rps)} | ${create.cpu.toFixed(1)} | ${Math.round(create.rps)} | ${create.p99} | ${create.failed + create.errors} | ${((100 * base.cpu) / create.cpu).toFixed(1)} % |`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`xpay bench:server-cpu ${new Date().toISOString()}: server CPU per request (all threads, /proc), 64 connections, ${ROUNDS} rounds`);
  console.log("\n| round | baseline µs/request | baseline req/s | create µs/create | creates/s | create p99 ms | failed | baseline CPU / create CPU |\n|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) console.log(row);
  console.log(`\nmedian: create ${median(creates).toFixed(1)} µs of server CPU per create; baseline / create ${(100 * median(ratios)).toFixed(1)} %`);
} finally {
  await rig.stop();
}
