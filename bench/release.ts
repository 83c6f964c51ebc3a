// bun bench/release.ts: size of each release file (dist/release, built first when missing or with
// --build) and, for the ones this machine runs, start-up: `--version` (spawn to exit) and `serve`
// (spawn to the first /healthz 200 on an existing database), median of RUNS. linux-arm64 runs
// under qemu-user, so its times are an emulated CPU's, not an arm64 machine's. Prints a Markdown
// table for docs/benchmarks.md with the machine, load average and stolen CPU of the run.
import { cpus, loadavg } from "node:os";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../package.json";
import { runtimeFor } from "../scripts/release/runtime.ts";
import { RELEASE_DIR, type ReleaseTarget, TARGETS, releaseFileName } from "../scripts/release/targets.ts";
import { BUN, cpuTimes, freePort, stealPct, waitHealthy } from "./lib.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROOT = join(import.meta.dir, "..");
const QEMU = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
const fmt = (xs: number[]) => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;

/** How this machine starts a target's file, or null when it cannot (see scripts/test-release.ts). */
function runner(t: ReleaseTarget, file: string): { cmd: string[]; note: string } | null {
  if (process.platform !== "linux" || t.format !== "elf") return null;
  const cmd = t.arch === "arm64" && process.arch !== "arm64" ? QEMU : [];
  if (cmd.length && Bun.spawnSync(["sh", "-c", "command -v qemu-aarch64"]).exitCode !== 0) return null;
  if (Bun.spawnSync([...cmd, file, "--version"], { stdout: "ignore", stderr: "ignore" }).exitCode !== 0) return null;
  return { cmd, note: cmd.length ? "emulated (qemu-user)" : "native" };
}

function timeVersion(cmd: string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    Bun.spawnSync(cmd, { stdout: "ignore", stderr: "ignore" });
    if (i > 0) out.push(performance.now() - t0); // the first run warms the page cache
  }
  return out;
}

async function timeServe(cmd: string[]): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "xpay-bench-release-"));
  const out: number[] = [];
  try {
    for (let i = 0; i <= RUNS; i++) {
      const port = await freePort();
      const t0 = performance.now();
      const child = Bun.spawn([...cmd, "serve", "--port", String(port)], { env: { ...process.env, XPAY_DB: join(dir, "xpay.db") }, stdout: "ignore", stderr: "ignore" });
      await waitHealthy(`http://127.0.0.1:${port}/healthz`, 120_000, 2);
      if (i > 0) out.push(performance.now() - t0); // the first start creates the database and keys
      child.kill("SIGTERM");
      await child.exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

if (process.argv.includes("--build") || !existsSync(join(RELEASE_DIR, "SHA256SUMS"))) {
  const b = Bun.spawnSync([BUN, join(ROOT, "scripts", "build-release.ts")], { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
  if (b.exitCode !== 0) throw new Error("bun scripts/build-release.ts failed");
}
const c0 = cpuTimes();
const rows: string[] = [];
for (const t of TARGETS) {
  const file = join(ROOT, RELEASE_DIR, releaseFileName(pkg.version, t));
  if (!existsSync(file)) continue;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const size = statSync(file).size;
  const runtime = statSync(runtimeFor(t)).size;
  const r = runner(t, file);
  const version = r ? fmt(timeVersion([...r.cmd, file, "--version"])) : "does not run here";
  const serve = r ? fmt(await timeServe([...r.cmd, file])) : "";
  rows.push(`| ${t.label} | ${mb(size)} MB | ${mb(runtime)} MB | ${mb(size - runtime)} MB | ${r?.note ?? ""} | ${version} | ${serve} |`);
  console.error(`[bench] ${rows.at(-1)}`);
}
const c1 = cpuTimes();
console.log(`${cpus().length} x ${cpus()[0]?.model ?? "?"}, ${process.platform}-${process.arch}; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; ${stealPct(c0, c1).toFixed(1)} % of the CPU stolen; median of ${RUNS} (min-max)`);
console.log("");
console.log("| target | file | Bun runtime in it | xpay's part | runs here | `--version` | spawn -> `/healthz` 200 |");
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
