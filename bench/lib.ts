// Shared by the bench scenarios: child processes, free ports, one autocannon run, percentiles, the
// log's pages by table.
import autocannon from "autocannon";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

export const BUN = process.execPath;
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
export const DURATION = Number(process.env.BENCH_DURATION ?? 8);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function waitHealthy(url: string, timeoutMs = 15_000, everyMs = 5): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {}
    await Bun.sleep(everyMs);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

/** Peak (VmHWM) and current (VmRSS) resident set of a process, in MiB. */
export async function rss(pid: number): Promise<{ peak: number; now: number }> {
  const s = await Bun.file(`/proc/${pid}/status`).text();
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, "m").exec(s)?.[1] ?? 0);
  return { peak: kb("VmHWM") / 1024, now: kb("VmRSS") / 1024 };
}

/** CPU time counters of the whole machine (/proc/stat, all cores): total and stolen by the hypervisor. */
export function cpuTimes(): { total: number; steal: number } {
  let line = "";
  try {
    line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  } catch {
    return { total: 0, steal: 0 };
  }
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number); // user nice system idle iowait irq softirq steal
  return { total: f.reduce((a, b) => a + b, 0), steal: f[7] ?? 0 };
}

/** CPU time (user + system) the processes used so far, ms (/proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMs(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return sum + (Number(f[11]) + Number(f[12])) * 10;
  }, 0);
}

/** Share of the machine's CPU time the hypervisor gave to others between two readings, in %. */
export const stealPct = (a: ReturnType<typeof cpuTimes>, b: ReturnType<typeof cpuTimes>) =>
  b.total > a.total ? (100 * (b.steal - a.steal)) / (b.total - a.total) : NaN;

export interface LoadResult {
  name: string;
  /** % of CPU time stolen by the hypervisor during the run (a shared machine's noise, made visible). */
  steal: number;
  rps: number;
  p50: number;
  p99: number;
  /** the answers' mean time, ms: with CONNECTIONS always busy, about CONNECTIONS / rps */
  mean: number;
  requests: number;
  ok: number;
  failed: number;
  errors: number;
}

export interface LoadSpec {
  name: string;
  url: string;
  path: string;
  method?: "GET" | "POST";
  contentType?: string;
  /** The next request body; called once per request (bodies are precomputed, this only picks). */
  body?: () => string;
  /** Whether an answer is a success (the protocols answer HTTP 200 with an error code inside). */
  ok?: (status: number, body: string) => boolean;
  duration?: number;
}

/** One autocannon run at CONNECTIONS connections; counts answers that are not successes. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  let ok = 0;
  let failed = 0;
  const check = spec.ok ?? ((s: number) => s === 200);
  const before = cpuTimes();
  const run = autocannon({
    url: spec.url,
    connections: CONNECTIONS,
    duration: spec.duration ?? DURATION,
    requests: [
      {
        method: spec.method ?? "POST",
        path: spec.path,
        headers: { "content-type": spec.contentType ?? "application/x-www-form-urlencoded" },
        ...(spec.body ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: spec.body!() }) } : {}),
        onResponse: (status: number, body: string) => {
          if (check(status, body)) ok++;
          else failed++;
        },
      },
    ],
  });
  const times = answerTimes(run);
  const r = await run;
  const steal = stealPct(before, cpuTimes());
  return { name: spec.name, steal, rps: r.requests.average, ...answerPercentiles(times), requests: r.requests.total, ok, failed, errors: r.errors + r.timeouts };
}

/**
 * Each 2xx answer's time in ms, as autocannon times it, kept with its fraction. autocannon's own
 * latency histogram keeps whole milliseconds, cut down: an answer of 10.74 ms counts as 10, so its
 * "p99 10" is any p99 from 10.00 to 10.99, and a target of "under 10 ms" read off it is met only at
 * 9. The bench's percentiles come from these times instead (since 2026-12-01; docs/benchmarks.md).
 */
export function answerTimes(run: autocannon.Instance): number[] {
  const times: number[] = [];
  run.on("response", (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  return times;
}

/** p50, p99 and the mean of answerTimes, in ms to two decimals (NaN when nothing answered). */
export function answerPercentiles(times: number[]): { p50: number; p99: number; mean: number } {
  const sorted = Array.from(Float64Array.from(times).sort());
  const round = (x: number) => Math.round(x * 100) / 100;
  const at = (p: number) => round(percentile(sorted, p));
  return { p50: at(50), p99: at(99), mean: sorted.length ? round(sorted.reduce((a, b) => a + b, 0) / sorted.length) : NaN };
}

/** The first line a child process prints (the baseline server prints its port). */
export async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
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

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A pool of precomputed values taken in turn; `wrapped` counts how often it ran out. */
export function pool<T>(items: T[]) {
  let i = 0;
  const p = {
    wrapped: 0,
    next(): T {
      if (i === items.length) {
        i = 0;
        p.wrapped++;
      }
      return items[i++]!;
    },
  };
  return p;
}

/**
 * The frames of a database's write-ahead log, counted by the table or index that owns each page
 * (SQLite's dbstat), most first: what the commits since the log was last emptied wrote.
 */
export function walPagesByTree(db: { query(sql: string): { all(): unknown[] } }, path: string): Map<string, number> {
  const wal = readFileSync(`${path}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const owner = new Map((db.query("SELECT pageno, name FROM dbstat").all() as { pageno: number; name: string }[]).map((r) => [r.pageno, r.name]));
  const counts = new Map<string, number>();
  for (let off = 32; off + 24 + pageSize <= wal.length; off += 24 + pageSize) {
    const name = owner.get(wal.readUInt32BE(off)) ?? "(freed)";
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return new Map([...counts].sort((a, b) => b[1] - a[1]));
}
