// What every bench entry point stands on: a seeded temp database, the gateway serving it as its own
// process (`bun src/cli/main.ts serve`, worker and checkpoint thread included), the bare-Elysia
// baseline process and the notification receiver. stop() ends them all and removes the database.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, firstLine, freePort, waitHealthy } from "./lib.ts";
import { type Receiver, startReceiver } from "./notify.ts";
import { type Seeded, seed } from "./seed.ts";

export interface Rig {
  /** temp directory holding the database; removed by stop() */
  dir: string;
  dbPath: string;
  seeded: Seeded;
  receiver: Receiver;
  server: ReturnType<typeof Bun.spawn>;
  /** the bare-Elysia baseline's process id (bench/server-cpu.ts reads its CPU time) */
  baselinePid: number;
  /** the gateway's base URL */
  gateway: string;
  /** the bare-Elysia baseline's base URL */
  baseline: string;
  stop(): Promise<void>;
}

/** `root`: the checkout whose server is started and whose bench/seed.ts seeds its database (another checkout's, for an A/B). */
export async function startRig(prefix: string, root = join(import.meta.dir, "..")): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dbPath = join(dir, "xpay.db");
  let seeded: Seeded;
  try {
    // The checkout's own seed: a database seeded by a newer checkout has a schema an older server refuses.
    const seedOf: typeof seed = root === join(import.meta.dir, "..") ? seed : (await import(join(root, "bench/seed.ts"))).seed;
    seeded = await seedOf(dbPath);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const receiver = startReceiver();
  const port = await freePort();
  // BENCH_PROFILE=DIR: the gateway writes a CPU profile (markdown) into DIR when it stops;
  // BENCH_PROFILE_FORMAT=json: a .cpuprofile instead, whose samples can be counted. The markdown's
  // times weigh each sample by the gap before it, so the loop's idle moments land on whatever ran
  // next: a once-a-second query showed as 37 % of the time and was 2 % of the samples (2026-11-28).
  const json = process.env.BENCH_PROFILE_FORMAT === "json";
  const profile = process.env.BENCH_PROFILE ? [json ? "--cpu-prof" : "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const server = Bun.spawn([BUN, ...profile, join(root, "src/cli/main.ts"), "serve", "--port", String(port), "--log-format", "json"], {
    env: { ...process.env, XPAY_DB: dbPath },
    stdout: "ignore", // the access log is still written (one line per request), to /dev/null
    stderr: "inherit",
  });
  const baselineProc = Bun.spawn([BUN, join(import.meta.dir, "baseline-server.ts")], { stdout: "pipe", stderr: "inherit" });
  const stop = async () => {
    server.kill("SIGTERM");
    baselineProc.kill("SIGTERM");
    receiver.stop();
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // BENCH_PIN=S,C: the gateway and the baseline on CPU list S, this process (the load generator, the
    // receiver, and wrk, which inherits it) on C: the client then never takes the server's core, and
    // the server's own threads (checkpoint, collector, JIT) share its one (docs/benchmarks.md, 2026-11-30).
    if (process.env.BENCH_PIN) {
      const [serverCpus, clientCpus] = process.env.BENCH_PIN.split(",");
      const pin = (cpus: string | undefined, pid: number) => {
        const r = Bun.spawnSync(["taskset", "-a", "-cp", cpus ?? "", String(pid)], { stdout: "ignore", stderr: "pipe" });
        if (r.exitCode !== 0) throw new Error(`BENCH_PIN: taskset -a -cp ${cpus} ${pid} failed: ${r.stderr.toString().trim()}`);
      };
      for (const pid of [server.pid, baselineProc.pid]) pin(serverCpus, pid);
      pin(clientCpus, process.pid);
    }
    const gateway = `http://127.0.0.1:${port}`;
    await waitHealthy(`${gateway}/healthz`);
    const baseline = `http://127.0.0.1:${await firstLine(baselineProc.stdout)}`;
    return { dir, dbPath, seeded, receiver, server, gateway, baseline, baselinePid: baselineProc.pid, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
