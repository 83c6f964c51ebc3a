// Start-up time of the compiled binary: spawn -> first 200 from /healthz, median of RUNS, on a
// database that already exists (the first start, which creates it and the platform key, is not
// counted). The binary is built first, every run, so it is always the code being measured.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, freePort, waitHealthy } from "./lib.ts";

export async function binaryStartup(runs = 5): Promise<{ binary: string; samples: number[]; median: number }> {
  const root = join(import.meta.dir, "..");
  const binary = join(root, "dist", "xpay");
  const b = Bun.spawnSync([BUN, join(root, "scripts", "build.ts")], { cwd: root, stdout: "ignore", stderr: "inherit" });
  if (b.exitCode !== 0) throw new Error("bun scripts/build.ts failed");
  const dir = mkdtempSync(join(tmpdir(), "xpay-bench-start-"));
  const db = join(dir, "xpay.db");
  const samples: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const port = await freePort();
    const t0 = performance.now();
    const child = Bun.spawn([binary, "serve", "--port", String(port)], { env: { ...process.env, XPAY_DB: db }, stdout: "ignore", stderr: "ignore" });
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, 15_000, 2);
    if (i > 0) samples.push(performance.now() - t0);
    child.kill("SIGTERM");
    await child.exited;
  }
  rmSync(dir, { recursive: true, force: true });
  const sorted = [...samples].sort((a, b) => a - b);
  return { binary, samples, median: sorted[Math.floor(sorted.length / 2)]! };
}
