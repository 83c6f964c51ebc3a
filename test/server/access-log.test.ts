// The access log stays whole and gets cheap: the time is formatted once per second (no Intl call
// per line), the lines of one event-loop turn go out in one write, what is queued at exit is
// written, and a real server under a burst of N requests logs N lines, flushed before it stops.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { formatIsoLocal, formatLocalClock } from "../../src/core/time.ts";
import { bufferedLines } from "../../src/server/log-buffer.ts";
import { LogClock } from "../../src/server/log-clock.ts";
import { createLogger } from "../../src/server/logger.ts";
import { tempDir } from "../helpers.ts";

const ROOT = resolve(".");
const dir = tempDir("xpay-access-log-");
const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

test("the cached clock writes what formatIsoLocal and formatLocalClock write, in every zone and across a DST change", () => {
  const clock = new LogClock();
  const start = Date.UTC(2027, 2, 14, 6, 59, 58); // New York's clocks move at 07:00 UTC
  for (const zone of ["Asia/Shanghai", "Asia/Kathmandu", "America/New_York", "UTC"]) {
    for (let ms = start; ms < start + 5000; ms += 7) {
      expect(clock.iso(ms, zone)).toBe(formatIsoLocal(ms, zone));
      expect(clock.clockOf(ms, zone)).toBe(formatLocalClock(ms, zone));
    }
  }
});

test("a thousand lines within a second call Intl's formatter a few times, not per line", () => {
  const proto = Intl.DateTimeFormat.prototype;
  const original = proto.formatToParts;
  let calls = 0;
  proto.formatToParts = function (this: Intl.DateTimeFormat, d?: Date | number) {
    calls++;
    return original.call(this, d);
  };
  try {
    const lines: string[] = [];
    const json = createLogger("json", (l) => lines.push(l));
    const pretty = createLogger("pretty", (l) => lines.push(l));
    for (let i = 0; i < 1000; i++) json.event("http", { path: "/x", status: 200 });
    for (let i = 0; i < 1000; i++) pretty.event("http", { path: "/x", status: 200 });
    expect(lines.length).toBe(2000);
    expect(calls).toBeLessThanOrEqual(8); // per logger, per second seen: two
  } finally {
    proto.formatToParts = original;
  }
});

test("a pretty line is the time, the event, then every field as key=value in order, one space apart", () => {
  const lines: string[] = [];
  const log = createLogger("pretty", (l) => lines.push(l), "UTC");
  log.event("http", { method: "POST", path: "/xpay/order/create", status: 200, ms: 1.7, ip: "127.0.0.1" });
  log.event("report", { sign: "abc", n: Number.NaN, extra: { key: "k", a: 1 }, text: "a\nb" });
  log.event("empty");
  // picocolors colours the text where it finds a terminal or CI set: the text without them is this
  const rest = lines.map((l) => l.replace(/\x1b\[\d+m/g, "").replace(/^\d\d:\d\d:\d\d \S+ /, ""));
  expect(rest).toEqual([
    "http method=POST path=/xpay/order/create status=200 ms=1.7 ip=127.0.0.1",
    'report sign=*** n=null extra={"key":"***","a":1} text=a\\nb',
    "empty ",
  ]);
});

test("the lines of one turn go out in one write, in order, every one of them", async () => {
  const writes: string[] = [];
  const sink = bufferedLines(99, (_fd, text) => writes.push(text));
  const log = createLogger("json", sink);
  for (let i = 0; i < 500; i++) log.event("http", { n: i });
  expect(writes).toEqual([]); // nothing written within the turn
  await new Promise((r) => setImmediate(r));
  expect(writes.length).toBe(1);
  const lines = writes[0]!.trimEnd().split("\n").map((l) => JSON.parse(l) as { n: number });
  expect(lines.map((l) => l.n)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  log.event("http", { n: 500 });
  log.flush(); // at once, as the exit handler does
  expect(writes.length).toBe(2);
});

test("lines queued when the process exits are written", () => {
  const script = `import { createLogger } from ${JSON.stringify(join(ROOT, "src/server/logger.ts"))};
    const log = createLogger("json");
    for (let i = 0; i < 2000; i++) log.event("http", { n: i });
    process.exit(0);`;
  const r = Bun.spawnSync([process.execPath, "-e", script], { cwd: dir, stdout: "pipe" });
  const lines = r.stdout.toString().trimEnd().split("\n");
  expect(lines.length).toBe(2000);
  expect(JSON.parse(lines.at(-1)!).n).toBe(1999);
});

test("serve: a burst of N requests is N access-log lines, all written before the process ends on SIGTERM", async () => {
  const db = join(dir, "xpay.db");
  const env = { ...process.env, NO_COLOR: "1", XPAY_DB: db };
  const p = Bun.spawn([process.execPath, join(ROOT, "src/cli/main.ts"), "serve", "--port", "0", "--log-format", "json"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  started.push(p);
  const reader = p.stdout.getReader();
  let out = "";
  while (!out.includes('"event":"listening"')) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`serve stopped: ${out} ${await new Response(p.stderr).text()}`);
    out += new TextDecoder().decode(chunk.value);
  }
  const port = /127\.0\.0\.1:(\d+)/.exec(out)![1];
  const N = 400;
  const answers = await Promise.all(Array.from({ length: N }, (_, i) => fetch(`http://127.0.0.1:${port}/healthz?n=${i}`).then((r) => r.status)));
  expect(answers.every((s) => s === 200)).toBe(true);
  p.kill("SIGTERM");
  expect(await p.exited).toBe(0);
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    out += new TextDecoder().decode(chunk.value);
  }
  const lines = out.trimEnd().split("\n").map((l) => JSON.parse(l) as { event: string; path?: string });
  const http = lines.filter((l) => l.event === "http");
  expect(http.length).toBe(N);
  expect(new Set(http.map((l) => l.path)).size).toBe(N);
  expect(lines.at(-1)!.event).toBe("stopped");
}, 60_000);
