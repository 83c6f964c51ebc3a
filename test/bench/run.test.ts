// `npm run bench` must keep working from a clone: one short run (1 s per measurement, no warm-up,
// one create round, 8 connections) end to end. Asserts what the run measured is real (every
// scenario answered, no failed or wrong answers, every notification delivered), never its speed.
import { expect, test } from "bun:test";
import { join } from "node:path";

test("npm run bench completes: every scenario measured, no failures, every notification delivered", async () => {
  const root = join(import.meta.dir, "..", "..");
  const child = Bun.spawn([process.execPath, join(root, "bench", "run.ts")], {
    cwd: root,
    env: { ...process.env, BENCH_DURATION: "1", BENCH_WARMUP: "0", BENCH_ROUNDS: "1", BENCH_CONNECTIONS: "8", BENCH_NOTIFY_ORDERS: "200", BENCH_NOTIFY_CONCURRENCY: "4" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect({ code, err: code === 0 ? "" : err }).toEqual({ code: 0, err: "" });

  const rows = out.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| scenario") && !l.startsWith("| report"));
  const cells = rows.map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
  expect(cells.map((c) => c[0])).toEqual(["native order/create, round 1", "native order/status", "epay V1 mapi.php create", "hash protocol create", "epay V2 create (RSA)", "template api/order/info"]);
  for (const [name, rps, p50, p99, baseline, baselineP99, , ok, failed, errors] of cells) {
    expect({ name, failed, errors }).toEqual({ name, failed: "0", errors: "0" });
    // The answers' own times, with their fraction: autocannon's histogram read these 0.3-0.9 ms p50s as 0.
    expect(Number(p50)).toBeGreaterThan(0);
    expect(Number(p99)).toBeGreaterThanOrEqual(Number(p50));
    expect(Number(ok)).toBeGreaterThan(0);
    expect(Number(rps)).toBeGreaterThan(0);
    expect(Number(baseline)).toBeGreaterThan(0);
    expect(Number(baselineP99)).toBeGreaterThan(0);
  }
  // The create's tail beside the bare baseline's, and the rate a p99 under 10 ms would take at it.
  const tail = /^create p99 \/ mean ([\d.]+) \(mean ([\d.]+) ms\); the bare baseline's ([\d.]+) in the same rounds \(p99 ([\d.]+) ms\): at its median ([\d.]+), a p99 under 10 ms takes about (\d+) creates\/s$/m.exec(out);
  expect(tail).not.toBeNull();
  const [, createTimes, createMean, baseTimes, , baseMedian, need] = tail!.map(Number);
  expect(createTimes).toBeGreaterThanOrEqual(1);
  expect(createMean).toBeGreaterThan(0);
  expect(baseTimes).toBeGreaterThanOrEqual(1);
  // baseMedian is printed to two decimals: 800 times its rounding (0.005) is 4.
  expect(Math.abs(need! - (8 * 1000 * baseMedian!) / 10)).toBeLessThanOrEqual(5);

  const notify = /\| report -> paid -> notification \| (\d+) notifications\/s .*\| (\d+)\/(\d+) delivered \| (\d+) reports not matched/.exec(out);
  expect(notify).not.toBeNull();
  expect({ delivered: notify![2], unmatched: notify![4] }).toEqual({ delivered: notify![3]!, unmatched: "0" });
  expect(Number(notify![3])).toBeGreaterThan(0);
  // The notification run has its baseline too, measured right before its reports.
  expect(Number(/ baseline (\d+) req\/s just before \(stolen [\d.]+%\) \|$/m.exec(out)?.[1] ?? 0)).toBeGreaterThan(0);
  // and the load generator's own CPU a notification (this process: the senders and the receiver)
  expect(Number(/ load generator CPU ([\d.]+) ms a notification \|/.exec(out)?.[1] ?? 0)).toBeGreaterThan(0);
  expect(out).toMatch(/server peak RSS \(VmHWM\) \d+\.\d MiB/);
  expect(out).toMatch(/binary start-up .* median \d+\.\d ms/);
  expect(out).toMatch(/^targets: native create >= 25% of baseline: (met|NOT met) .*; notifications >= 2000\/s: (met|NOT met) \(\d+\/s\); notification p99 < 50 ms: (met|NOT met)/m);
}, 120_000);
