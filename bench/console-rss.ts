// bun bench/console-rss.ts [DB] (npm run bench:console-rss): the server's memory while an operator
// uses the console on a large order history (issue 29 item 5). The real `serve` (bun
// src/cli/main.ts serve, as bench/run.ts measures RSS) runs as a child process on DB (seeded with
// ORDERS orders by bench/seed-orders.ts when it does not exist: give a path outside the repository,
// e.g. /work/benchdb/m1.db, to seed once and measure often). This process adds an operator through
// the CLI, logs in through the form as a browser does (pre-session cookie, CSRF token, Origin), then:
//   idle       - RSS a few seconds after /healthz answered;
//   login      - the login form's GET and POST (the password hash is what costs memory here), 2 s;
//   dashboard  - DASH loads of /admin, one at a time;
//   csv full   - CSV_ROUNDS downloads of the whole export (every order), read as fast as it comes;
//   csv filter - CSV_ROUNDS downloads of the export of paid orders of merchant 1003;
//   csv full, two at once - two whole downloads side by side;
//   csv slow   - one download of the whole export by a client that reads SLOW_KIB KiB per
//                SLOW_MS ms (a raw socket paused between reads, so TCP pushes back) for SLOW_S s;
//   csv stalled - a download that takes the first bytes and then reads nothing for STALL_S s (a
//                paused download, a stalled link): RSS while the server holds it; then
//   stalled, the rest - the same download read to its end: whether it is whole or was cut;
//   after      - RSS a few seconds after the last download.
// CHECKOUTS (comma-separated repository roots, default this one) runs the same phases with each
// checkout's server in turn, ROUNDS times alternated (e.g. a worktree of main beside this branch):
// the baseline in the same run. A filtered export runs before the full one, so its peak is its own.
// Each download phase starts SETTLE_MS (3 s) after the last one, when the server's loop has been
// idle and its heap given back. Every phase starts by resetting the kernel's peak counter
// (`echo 5 > /proc/PID/clear_refs`), so its VmHWM is that phase's own peak; VmRSS is also sampled
// every SAMPLE_MS ms as a cross-check.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, cpuTimes, freePort, rss, stealPct, waitHealthy } from "./lib.ts";
import { seedOrders } from "./seed-orders.ts";

const ORDERS = Number(process.env.ORDERS ?? 1_000_000);
const DASH = Number(process.env.DASH ?? 30);
const CSV_ROUNDS = Number(process.env.CSV_ROUNDS ?? 2);
const SLOW_KIB = Number(process.env.SLOW_KIB ?? 16);
const SLOW_MS = Number(process.env.SLOW_MS ?? 100);
const SLOW_S = Number(process.env.SLOW_S ?? 20);
const STALL_S = Number(process.env.STALL_S ?? 15);
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const CHECKOUTS = (process.env.CHECKOUTS ?? "").split(",").filter(Boolean);
const USER = "bench-rss";
const PASSWORD = "bench rss password 17";
const root = join(import.meta.dir, "..");
const given = process.argv[2];
const dir = given ? null : mkdtempSync(join(tmpdir(), "xpay-console-rss-"));
const db = given ?? join(dir!, "xpay.db");
const log = (...a: unknown[]) => console.error("[console-rss]", ...a);
const mib = (n: number) => n.toFixed(1);

function cli(args: string[], stdin?: string): { code: number; out: string } {
  const p = spawnSync(BUN, [join(root, "src/cli/main.ts"), "--db", db, ...args], { input: stdin, encoding: "utf8" });
  return { code: p.status ?? -1, out: `${p.stdout}${p.stderr}` };
}

/** Cookies of a response as name=value pairs (Set-Cookie attributes dropped; an emptied cookie removed). */
function jar(res: Response, into: Map<string, string>): Map<string, string> {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const i = pair!.indexOf("=");
    const [k, v] = [pair!.slice(0, i).trim(), pair!.slice(i + 1).trim()];
    if (v === "") into.delete(k);
    else into.set(k, v);
  }
  return into;
}
const cookieHeader = (j: Map<string, string>) => [...j].map(([k, v]) => `${k}=${v}`).join("; ");

/** The login form, as a browser submits it: GET (pre-session cookie and token), POST, the session cookie back. */
async function login(base: string): Promise<string> {
  const cookies = new Map<string, string>();
  const form = await fetch(`${base}/admin/login`, { redirect: "manual" });
  jar(form, cookies);
  const html = await form.text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error(`login form without a token (${form.status})`);
  const res = await fetch(`${base}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base, cookie: cookieHeader(cookies) },
    body: new URLSearchParams({ _csrf: csrf, user: USER, password: PASSWORD }).toString(),
  });
  jar(res, cookies);
  await res.text();
  if (res.status !== 303 || !cookies.has("xpay_session")) throw new Error(`login answered ${res.status}`);
  return cookieHeader(cookies);
}

/** Peak counters of a process: VmHWM is reset to the current RSS (proc(5), clear_refs 5). */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

interface Phase {
  name: string;
  what: string;
  /** the server's CPU time in the phase (user + system), s */
  cpu: number;
  start: number;
  /** highest VmRSS seen by the sampler during the phase */
  sampled: number;
  /** VmHWM at the phase's end (reset at its start when the kernel allows) */
  hwm: number;
  end: number;
  seconds: number;
  steal: number;
}

let sampleMax = 0;
let sampling: Timer | undefined;
function startSampler(pid: number) {
  sampling = setInterval(() => {
    rss(pid).then((r) => (sampleMax = Math.max(sampleMax, r.now)), () => {});
  }, SAMPLE_MS);
}

/** A process's CPU time so far (user + system), s: /proc/PID/stat fields 14 and 15, in clock ticks of 1/100 s. */
async function procCpu(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text();
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** Before a download phase: the server's heap, grown by the last download, is given back once its loop is idle. */
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 3000);

async function phase(pid: number, name: string, what: string, run: () => Promise<void>, settle = false): Promise<Phase> {
  if (settle) await Bun.sleep(SETTLE_MS);
  const reset = resetPeak(pid);
  const start = (await rss(pid)).now;
  sampleMax = start;
  const before = cpuTimes();
  const cpu0 = await procCpu(pid);
  const t = performance.now();
  await run();
  const seconds = (performance.now() - t) / 1000;
  const r = await rss(pid);
  const cpu = (await procCpu(pid)) - cpu0;
  const p: Phase = { name, what, cpu, start, sampled: Math.max(sampleMax, r.now), hwm: r.peak, end: r.now, seconds, steal: stealPct(before, cpuTimes()) || 0 };
  log(`${name}: start ${mib(p.start)} MiB, peak sampled ${mib(p.sampled)}, VmHWM ${mib(p.hwm)}${reset ? "" : " (not reset: since start)"}, end ${mib(p.end)}, ${p.seconds.toFixed(1)} s, server CPU ${p.cpu.toFixed(2)} s`);
  return p;
}

/** A whole CSV download read as fast as it comes: bytes and lines. */
async function download(url: string, cookie: string): Promise<{ bytes: number; lines: number }> {
  const res = await fetch(url, { headers: { cookie } });
  if (res.status !== 200 || !res.headers.get("content-type")?.startsWith("text/csv")) throw new Error(`GET ${url}: ${res.status} ${res.headers.get("content-type")}`);
  let bytes = 0;
  let lines = 0;
  const reader = res.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const chunk = r.value;
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { bytes, lines };
}

/**
 * A client that reads slowly: a raw socket (no client-side buffering of its own beyond the kernel's),
 * paused between reads, so the server's writes meet a full TCP window. Reads about `kib` KiB every
 * `ms` ms for `seconds` s, then hangs up. Returns the bytes it took in.
 */
function slowDownload(base: string, path: string, cookie: string, kib: number, ms: number, seconds: number): Promise<number> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    let got = 0;
    let budget = 0;
    const s = connect({ host: u.hostname, port: Number(u.port) }, () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: ${u.host}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`);
    });
    s.setNoDelay(true);
    // A read can bring up to 64 KiB: the budget goes below zero and the next ticks pay it back.
    s.on("data", (chunk: Buffer) => {
      got += chunk.length;
      budget -= chunk.length;
      if (budget <= 0) s.pause();
    });
    const tick = setInterval(() => {
      budget = Math.min(budget + kib * 1024, kib * 1024);
      if (budget > 0) s.resume();
    }, ms);
    s.on("error", (e) => (clearInterval(tick), reject(e)));
    setTimeout(() => {
      clearInterval(tick);
      s.destroy();
      resolve(got);
    }, seconds * 1000);
  });
}

/**
 * A download that takes the first bytes, then reads nothing for `seconds` s (the socket paused: the
 * kernel's buffers fill and TCP pushes back), then reads to the end as fast as it comes. `stalled`
 * settles when the pause ends; `done` with the bytes and whether the chunked body was whole (its
 * zero-length last chunk came) or cut.
 */
function stalledDownload(base: string, path: string, cookie: string, seconds: number): { stalled: Promise<void>; done: Promise<{ bytes: number; whole: boolean }> } {
  const u = new URL(base);
  let endStall: () => void = () => {};
  const stalled = new Promise<void>((r) => (endStall = r));
  const done = new Promise<{ bytes: number; whole: boolean }>((resolve, reject) => {
    let bytes = 0;
    let tail = Buffer.alloc(0);
    const s = connect({ host: u.hostname, port: Number(u.port) }, () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: ${u.host}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`);
    });
    const take = (b: Buffer) => {
      bytes += b.length;
      tail = Buffer.concat([tail, b]).subarray(-16);
    };
    s.once("data", (first: Buffer) => {
      take(first);
      s.pause();
      setTimeout(() => {
        endStall();
        s.on("data", take);
        s.resume();
      }, seconds * 1000);
    });
    s.on("error", (e) => (endStall(), reject(e)));
    s.on("close", () => (endStall(), resolve({ bytes, whole: tail.toString("latin1").endsWith("\r\n0\r\n\r\n") })));
  });
  return { stalled, done };
}

interface Run {
  label: string;
  phases: Phase[];
  healthzMs: number;
  dashMs: number[];
  full: { bytes: number; lines: number; s: number }[];
  filtered: { bytes: number; lines: number; s: number }[];
  both: { bytes: number; lines: number; s: number }[];
  slowBytes: number;
  stalled: { bytes: number; whole: boolean; s: number };
}

/** One checkout's server on the database, through every phase. */
async function measure(root: string, label: string): Promise<Run> {
  const port = await freePort();
  const server = Bun.spawn([BUN, join(root, "src/cli/main.ts"), "serve", "--port", String(port), "--log-format", "json"], {
    env: { ...process.env, XPAY_DB: db },
    stdout: "ignore", // the access log is still written, to /dev/null, as in bench/run.ts
    stderr: "inherit",
  });
  try {
    const pid = server.pid;
    const base = `http://127.0.0.1:${port}`;
    const t0 = performance.now();
    await waitHealthy(`${base}/healthz`, 60_000);
    const healthzMs = performance.now() - t0;
    log(`${label}: /healthz after ${Math.round(healthzMs)} ms, RSS ${mib((await rss(pid)).now)} MiB`);
    startSampler(pid);
    const phases: Phase[] = [];

    phases.push(await phase(pid, "idle", "3 s after /healthz answered, nothing asked", () => Bun.sleep(3000)));
    let cookie = "";
    // argon2id takes ~64 MiB per hash (core/admin/hash-slots.ts), given back a moment after the
    // answer: the phase waits 2 s so the dashboard's peak is not the hash's.
    phases.push(await phase(pid, "login", "the login form: GET, POST (the password's argon2id hash), the session cookie, 2 s", async () => {
      cookie = await login(base);
      await Bun.sleep(2000);
    }));

    const dashMs: number[] = [];
    phases.push(await phase(pid, "dashboard", `${DASH} loads of /admin one at a time`, async () => {
      for (let i = 0; i < DASH; i++) {
        const t = performance.now();
        const res = await fetch(`${base}/admin`, { headers: { cookie }, redirect: "manual" });
        const body = await res.text();
        if (res.status !== 200 || !body.includes("</html>")) throw new Error(`GET /admin: ${res.status}`);
        dashMs.push(performance.now() - t);
      }
    }));
    dashMs.sort((a, b) => a - b);

    const exports = async (into: { bytes: number; lines: number; s: number }[], path: string, what: string) => {
      for (let i = 0; i < CSV_ROUNDS; i++) {
        const t = performance.now();
        into.push({ ...(await download(`${base}${path}`, cookie)), s: (performance.now() - t) / 1000 });
        log(`${what}: ${into.at(-1)!.lines - 1} rows, ${mib(into.at(-1)!.bytes / 2 ** 20)} MiB in ${into.at(-1)!.s.toFixed(1)} s`);
      }
    };
    const filtered: Run["filtered"] = [];
    phases.push(await phase(pid, "csv filtered", `${CSV_ROUNDS} downloads of export.csv?status=paid&pid=1003, read as fast as they come`, () =>
      exports(filtered, "/admin/orders/export.csv?status=paid&pid=1003", "filtered export"), true));
    const full: Run["full"] = [];
    phases.push(await phase(pid, "csv full", `${CSV_ROUNDS} downloads of /admin/orders/export.csv (every order), read as fast as they come`, () =>
      exports(full, "/admin/orders/export.csv", "full export"), true));
    if (full[0]!.lines - 1 < ORDERS * 0.99 && !given) throw new Error(`the full export had ${full[0]!.lines - 1} rows`);
    // Two operators at once: a per-download buffer would double the rise; a busy heap does not.
    const both: Run["both"] = [];
    phases.push(await phase(pid, "csv full, two at once", "two downloads of the whole export at the same time", async () => {
      const t = performance.now();
      const r = await Promise.all([0, 1].map(() => download(`${base}/admin/orders/export.csv`, cookie)));
      both.push(...r.map((x) => ({ ...x, s: (performance.now() - t) / 1000 })));
      log(`two full exports at once: ${r.map((x) => x.lines - 1).join(" + ")} rows in ${both[0]!.s.toFixed(1)} s`);
    }, true));

    let slowBytes = 0;
    phases.push(await phase(pid, "csv slow reader", `the whole export read at ${SLOW_KIB} KiB per ${SLOW_MS} ms for ${SLOW_S} s, then hung up`, async () => {
      slowBytes = await slowDownload(base, "/admin/orders/export.csv", cookie, SLOW_KIB, SLOW_MS, SLOW_S);
      log(`slow reader took ${mib(slowBytes / 2 ** 20)} MiB of ${mib(full[0]!.bytes / 2 ** 20)} MiB`);
    }, true));

    let stalledAt = 0;
    await Bun.sleep(SETTLE_MS);
    const d = stalledDownload(base, "/admin/orders/export.csv", cookie, STALL_S);
    phases.push(await phase(pid, "csv stalled", `the whole export, first bytes taken, then nothing read for ${STALL_S} s`, async () => {
      await d.stalled;
      stalledAt = performance.now();
    }));
    let stalled = { bytes: 0, whole: false, s: 0 };
    phases.push(await phase(pid, "stalled, the rest", "the same download read to its end as fast as it comes", async () => {
      stalled = { ...(await d.done), s: (performance.now() - stalledAt) / 1000 };
      log(`stalled download: ${mib(stalled.bytes / 2 ** 20)} MiB, ${stalled.whole ? "whole" : "CUT"}`);
    }));

    phases.push(await phase(pid, "after", "5 s after the last download, nothing asked", () => Bun.sleep(5000)));
    // The server still answers after the hung-up and the stalled downloads.
    if ((await fetch(`${base}/healthz`)).status !== 200) throw new Error("/healthz after the downloads");
    return { label, phases, healthzMs, dashMs, full, filtered, both, slowBytes, stalled };
  } finally {
    clearInterval(sampling);
    server.kill("SIGTERM");
    await server.exited;
  }
}

try {
  if (!existsSync(db)) {
    const t = performance.now();
    await seedOrders(db, { orders: ORDERS, days: 60, merchants: 5, accounts: 16, now: Math.floor(Date.now() / 1000) });
    log(`seeded ${ORDERS} orders into ${db} in ${Math.round(performance.now() - t)} ms`);
  }
  const added = cli(["admin", "add", "--user", USER, "--password-stdin"], `${PASSWORD}\n`);
  if (added.code !== 0 && !/exist/i.test(added.out)) throw new Error(`admin add: ${added.out}`);

  const roots = CHECKOUTS.length > 0 ? CHECKOUTS : [root];
  const name = (r: string) => {
    const commit = spawnSync("git", ["-C", r, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim();
    const dirty = spawnSync("git", ["-C", r, "status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).stdout.trim() !== "";
    return `${r.split("/").at(-1)} ${commit}${dirty ? "+" : ""}`;
  };
  const runs: Run[] = [];
  const before = cpuTimes();
  for (let i = 0; i < ROUNDS; i++) for (const r of roots) runs.push(await measure(r, `${name(r)}${ROUNDS > 1 ? ` #${i + 1}` : ""}`));
  const steal = stealPct(before, cpuTimes()) || 0;

  const load = (await Bun.file("/proc/loadavg").text().catch(() => "?")).split(" ").slice(0, 3).join(" ");
  const rate = (x: { bytes: number; s: number }[]) => x.map((r) => `${r.s.toFixed(1)} s`).join(", ");
  const median = (x: number[]) => x[Math.floor(x.length / 2)]!;
  const out: string[] = [];
  out.push(`RSS of \`serve\` (MiB) on ${ORDERS.toLocaleString("en")} orders: each phase's peak (VmHWM, reset at the phase's start) / VmRSS at its end; server CPU s in brackets`, "");
  out.push(`| phase | ${runs.map((r) => r.label).join(" | ")} |`, `|---|${runs.map(() => "---:").join("|")}|`);
  for (const [i, p] of runs[0]!.phases.entries()) {
    out.push(`| ${p.name}: ${p.what} | ${runs.map((r) => `${mib(r.phases[i]!.hwm)} / ${mib(r.phases[i]!.end)} (${r.phases[i]!.cpu.toFixed(2)})`).join(" | ")} |`);
  }
  out.push(`| RSS at the start of the idle phase | ${runs.map((r) => mib(r.phases[0]!.start)).join(" | ")} |`);
  out.push(`| highest VmRSS sampled every ${SAMPLE_MS} ms, all phases | ${runs.map((r) => mib(Math.max(...r.phases.map((p) => p.sampled)))).join(" | ")} |`);
  out.push(`| spawn -> /healthz ms | ${runs.map((r) => Math.round(r.healthzMs)).join(" | ")} |`);
  out.push(`| dashboard median / slowest ms | ${runs.map((r) => `${median(r.dashMs).toFixed(1)} / ${r.dashMs.at(-1)!.toFixed(1)}`).join(" | ")} |`);
  out.push(`| full export (${runs[0]!.full[0]!.lines - 1} rows, ${mib(runs[0]!.full[0]!.bytes / 2 ** 20)} MiB), each download | ${runs.map((r) => rate(r.full)).join(" | ")} |`);
  out.push(`| two full exports at once, both done after | ${runs.map((r) => `${r.both[0]!.s.toFixed(1)} s`).join(" | ")} |`);
  out.push(`| filtered export (${runs[0]!.filtered[0]!.lines - 1} rows, ${mib(runs[0]!.filtered[0]!.bytes / 2 ** 20)} MiB), each download | ${runs.map((r) => rate(r.filtered)).join(" | ")} |`);
  out.push(`| slow reader: MiB taken in ${SLOW_S} s | ${runs.map((r) => mib(r.slowBytes / 2 ** 20)).join(" | ")} |`);
  out.push(`| stalled download (${STALL_S} s): MiB received, whole or cut | ${runs.map((r) => `${mib(r.stalled.bytes / 2 ** 20)}, ${r.stalled.whole ? "whole" : "**cut**"}`).join(" | ")} |`);
  out.push("", `CPU stolen during the run: ${steal.toFixed(1)} %; load average at the end: ${load}`);
  console.log(out.join("\n"));
} finally {
  clearInterval(sampling);
  if (dir) rmSync(dir, { recursive: true, force: true });
}
