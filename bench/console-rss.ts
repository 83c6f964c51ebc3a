// bun bench/console-rss.ts [DB] (npm run bench:console-rss): the server's memory while an operator
// uses the console on a large order history (issue 29 item 5). The real `serve` (bun
// src/cli/main.ts serve, as bench/run.ts measures RSS) runs as a child process on DB (seeded with
// ORDERS orders by bench/seed-orders.ts when it does not exist: give a path outside the repository,
// e.g. /work/benchdb/m1.db, to seed once and measure often). This process adds an operator through
// the CLI, logs in through the form as a browser does (pre-session cookie, CSRF token, Origin), then:
//   idle       - RSS a few seconds after /healthz answered;
//   login      - the login form's GET and POST (the password hash is what costs memory here);
//   dashboard  - DASH loads of /admin, one at a time;
//   csv full   - CSV_ROUNDS downloads of the whole export (every order), read as fast as it comes;
//   csv filter - CSV_ROUNDS downloads of the export of paid orders of merchant 1003;
//   csv slow   - one download of the whole export by a client that reads SLOW_KIB KiB per
//                SLOW_MS ms (a raw socket paused between reads, so TCP pushes back) for SLOW_S s;
//   after      - RSS a few seconds after the last download.
// Every phase starts by resetting the kernel's peak counter (`echo 5 > /proc/PID/clear_refs`), so
// its VmHWM is that phase's own peak; VmRSS is also sampled every SAMPLE_MS ms as a cross-check.
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
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 20);
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

async function phase(pid: number, name: string, what: string, run: () => Promise<void>): Promise<Phase> {
  const reset = resetPeak(pid);
  const start = (await rss(pid)).now;
  sampleMax = start;
  const before = cpuTimes();
  const t = performance.now();
  await run();
  const seconds = (performance.now() - t) / 1000;
  const r = await rss(pid);
  const p: Phase = { name, what, start, sampled: Math.max(sampleMax, r.now), hwm: r.peak, end: r.now, seconds, steal: stealPct(before, cpuTimes()) || 0 };
  log(`${name}: start ${mib(p.start)} MiB, peak sampled ${mib(p.sampled)}, VmHWM ${mib(p.hwm)}${reset ? "" : " (not reset: since start)"}, end ${mib(p.end)}, ${p.seconds.toFixed(1)} s`);
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

let server: ReturnType<typeof Bun.spawn> | undefined;
try {
  if (!existsSync(db)) {
    const t = performance.now();
    await seedOrders(db, { orders: ORDERS, days: 60, merchants: 5, accounts: 16, now: Math.floor(Date.now() / 1000) });
    log(`seeded ${ORDERS} orders into ${db} in ${Math.round(performance.now() - t)} ms`);
  }
  const added = cli(["admin", "add", "--user", USER, "--password-stdin"], `${PASSWORD}\n`);
  if (added.code !== 0 && !/exist/i.test(added.out)) throw new Error(`admin add: ${added.out}`);

  const port = await freePort();
  server = Bun.spawn([BUN, join(root, "src/cli/main.ts"), "serve", "--port", String(port), "--log-format", "json"], {
    env: { ...process.env, XPAY_DB: db },
    stdout: "ignore", // the access log is still written, to /dev/null, as in bench/run.ts
    stderr: "inherit",
  });
  const pid = server.pid;
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  await waitHealthy(`${base}/healthz`, 60_000);
  log(`/healthz after ${Math.round(performance.now() - t0)} ms, RSS ${mib((await rss(pid)).now)} MiB`);
  startSampler(pid);
  const phases: Phase[] = [];

  phases.push(await phase(pid, "idle", "3 s after /healthz answered, nothing asked", () => Bun.sleep(3000)));
  let cookie = "";
  phases.push(await phase(pid, "login", "the login form: GET, POST (the password's hash), the session cookie", async () => {
    cookie = await login(base);
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

  const full: { bytes: number; lines: number; s: number }[] = [];
  phases.push(await phase(pid, "csv full", `${CSV_ROUNDS} downloads of /admin/orders/export.csv (every order), read as fast as they come`, async () => {
    for (let i = 0; i < CSV_ROUNDS; i++) {
      const t = performance.now();
      full.push({ ...(await download(`${base}/admin/orders/export.csv`, cookie)), s: (performance.now() - t) / 1000 });
      log(`full export: ${full.at(-1)!.lines - 1} rows, ${mib(full.at(-1)!.bytes / 2 ** 20)} MiB in ${full.at(-1)!.s.toFixed(1)} s`);
    }
  }));
  if (full[0]!.lines - 1 < ORDERS * 0.99 && !given) throw new Error(`the full export had ${full[0]!.lines - 1} rows`);

  const filtered: { bytes: number; lines: number; s: number }[] = [];
  phases.push(await phase(pid, "csv filtered", `${CSV_ROUNDS} downloads of export.csv?status=paid&pid=1003`, async () => {
    for (let i = 0; i < CSV_ROUNDS; i++) {
      const t = performance.now();
      filtered.push({ ...(await download(`${base}/admin/orders/export.csv?status=paid&pid=1003`, cookie)), s: (performance.now() - t) / 1000 });
      log(`filtered export: ${filtered.at(-1)!.lines - 1} rows, ${mib(filtered.at(-1)!.bytes / 2 ** 20)} MiB in ${filtered.at(-1)!.s.toFixed(1)} s`);
    }
  }));

  let slowBytes = 0;
  phases.push(await phase(pid, "csv slow reader", `the whole export read at ${SLOW_KIB} KiB per ${SLOW_MS} ms for ${SLOW_S} s, then hung up`, async () => {
    slowBytes = await slowDownload(base, "/admin/orders/export.csv", cookie, SLOW_KIB, SLOW_MS, SLOW_S);
    log(`slow reader took ${mib(slowBytes / 2 ** 20)} MiB of ${mib(full[0]!.bytes / 2 ** 20)} MiB`);
  }));

  phases.push(await phase(pid, "after", "5 s after the last download, nothing asked", () => Bun.sleep(5000)));
  // The server still answers after the hung-up download (it did not stop at the slow client).
  if ((await fetch(`${base}/healthz`)).status !== 200) throw new Error("/healthz after the downloads");
  clearInterval(sampling);

  const load = (await Bun.file("/proc/loadavg").text().catch(() => "?")).split(" ").slice(0, 3).join(" ");
  const rate = (x: { bytes: number; s: number }[]) => x.map((r) => `${mib(r.bytes / 2 ** 20)} MiB in ${r.s.toFixed(1)} s`).join(", ");
  console.log(`| ${ORDERS.toLocaleString("en")} orders, \`serve\` as a child process | RSS at start MiB | peak sampled MiB | VmHWM MiB | RSS at end MiB | seconds | stolen % |
|---|---:|---:|---:|---:|---:|---:|
${phases.map((p) => `| ${p.name}: ${p.what} | ${mib(p.start)} | ${mib(p.sampled)} | ${mib(p.hwm)} | ${mib(p.end)} | ${p.seconds.toFixed(1)} | ${p.steal.toFixed(0)} |`).join("\n")}

dashboard: median ${dashMs[Math.floor(dashMs.length / 2)]!.toFixed(1)} ms, slowest ${dashMs.at(-1)!.toFixed(1)} ms per load
full export: ${full[0]!.lines - 1} rows; ${rate(full)}
filtered export: ${filtered[0]!.lines - 1} rows; ${rate(filtered)}
slow reader: took ${mib(slowBytes / 2 ** 20)} MiB in ${SLOW_S} s
load average at the end: ${load}`);
} finally {
  clearInterval(sampling);
  server?.kill("SIGTERM");
  await server?.exited;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
