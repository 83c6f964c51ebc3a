// Issue 15, consistency: with --log-format json every line `xpay serve` writes is JSON (the
// listening, stopping and stopped lines included); every time is in the `timezone` setting with
// its offset; a second serve on the same database says so at start (a warning: two servers on
// one file are safe, docs/decisions/operations.md), and the first one's clean stop takes it off
// the list.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers.ts";

const MAIN = resolve("src/cli/main.ts");
const dir = tempDir("xpay-serve-lines-");
const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill("SIGKILL"); // a failed test leaves no server behind
  rmSync(dir, { recursive: true, force: true });
});
const db = join(dir, "xpay.db");
const run = (...args: string[]) => Bun.spawnSync([process.execPath, MAIN, "--db", db, ...args], { env: { ...process.env, NO_COLOR: "1" } });
expect(run("migrate").exitCode).toBe(0);

interface Served {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  lines: string[];
  /** Waits for a line containing `text`; returns every line so far. */
  until(text: string): Promise<string[]>;
  /** SIGTERM, then the exit code and every line. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number; lines: string[]; err: string }>;
}

function serve(...args: string[]): Served {
  const proc = Bun.spawn([process.execPath, MAIN, "--db", db, "serve", "--port", "0", ...args], { env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  started.push(proc);
  const lines: string[] = [];
  const reader = proc.stdout.getReader();
  let buffered = "";
  const read = (async () => {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      buffered += new TextDecoder().decode(chunk.value);
      const parts = buffered.split("\n");
      buffered = parts.pop()!;
      lines.push(...parts);
    }
  })();
  return {
    proc, lines,
    async until(text) {
      for (let i = 0; i < 400 && !lines.some((l) => l.includes(text)); i++) await Bun.sleep(25);
      if (!lines.some((l) => l.includes(text))) throw new Error(`no line with ${text}: ${lines.join("\n")}`);
      return lines;
    },
    async stop(signal = "SIGTERM") {
      proc.kill(signal);
      const code = await proc.exited;
      await read;
      return { code, lines, err: await new Response(proc.stderr).text() };
    },
  };
}

const ISO_SHANGHAI = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+08:00$/;

test("--log-format json: every line is JSON, listening and stopping included, times with +08:00", async () => {
  const s = serve("--log-format", "json");
  await s.until("listening");
  const port = JSON.parse(s.lines.find((l) => l.includes('"listening"'))!).url.split(":").pop();
  await fetch(`http://127.0.0.1:${port}/healthz`);
  const { code, lines, err } = await s.stop();
  expect(code).toBe(0);
  expect(err).toBe("");
  const parsed = lines.map((l) => JSON.parse(l)); // throws on any line that is not JSON
  expect(parsed.map((p) => p.event)).toEqual(expect.arrayContaining(["listening", "http", "stopping", "stopped"]));
  // base_url too: with --port 0 it names the port bound (it said ":0").
  expect(parsed.find((p) => p.event === "listening")).toMatchObject({ level: "info", url: `http://127.0.0.1:${port}`, base_url: `http://127.0.0.1:${port}`, db, time_zone: "Asia/Shanghai" });
  expect(parsed.find((p) => p.event === "stopping")).toMatchObject({ signal: "SIGTERM" });
  for (const p of parsed) expect(p.time).toMatch(ISO_SHANGHAI);
}, 30_000);

test("the timezone setting moves every log time; pretty lines carry the offset", async () => {
  expect(run("settings", "set", "timezone", "UTC").exitCode).toBe(0);
  try {
    const json = serve("--log-format", "json");
    await json.until("listening");
    const done = await json.stop();
    for (const l of done.lines) expect(JSON.parse(l).time).toMatch(/\+00:00$/);
    expect(JSON.parse(done.lines.find((l) => l.includes('"listening"'))!).time_zone).toBe("UTC");

    const pretty = serve();
    await pretty.until("listening");
    const out = await pretty.stop("SIGINT");
    expect(out.code).toBe(0);
    expect(out.lines.find((l) => l.includes("xpay listening"))).toMatch(/^\d\d:\d\d:\d\d \+00:00 xpay listening on http:\/\/127\.0\.0\.1:\d+ .*times in UTC$/);
    expect(out.lines.find((l) => l.includes("stopping"))).toMatch(/^\d\d:\d\d:\d\d \+00:00 SIGINT: stopping$/);
  } finally {
    run("settings", "set", "timezone", "Asia/Shanghai");
  }
  expect(run("settings", "set", "timezone", "Mars/Olympus").stderr.toString()).toBe("error: timezone must be an IANA time zone name such as Asia/Shanghai or UTC (unknown: Mars/Olympus)\n");
}, 30_000);

test("a second serve on the same database warns once, naming the first; after a clean stop nobody is warned", async () => {
  const first = serve("--log-format", "json");
  await first.until("listening");
  const second = serve("--log-format", "json");
  await second.until("listening");
  const warnings = second.lines.map((l) => JSON.parse(l)).filter((p) => p.level === "warn");
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatchObject({ event: "serve.second_instance", other_pid: first.proc.pid });
  expect(warnings[0].message).toMatch(new RegExp(`^another xpay serve runs on this database \\(pid ${first.proc.pid} on this host, port \\d+, started \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\+08:00\\): both take payments and share the notification work, which is safe and what a restart without downtime needs; stop one if this was not intended$`));
  expect(first.lines.some((l) => l.includes('"warn"'))).toBe(false);
  expect((await second.stop()).code).toBe(0);
  expect((await first.stop()).code).toBe(0);

  const third = serve("--log-format", "json");
  await third.until("listening");
  const out = await third.stop();
  expect(out.lines.some((l) => l.includes("serve.second_instance"))).toBe(false);
}, 30_000);

test("a server killed with SIGKILL does not make the next start warn", async () => {
  const killed = serve("--log-format", "json");
  await killed.until("listening");
  await killed.stop("SIGKILL");
  const next = serve("--log-format", "json");
  await next.until("listening");
  const out = await next.stop();
  expect(out.lines.some((l) => l.includes("serve.second_instance"))).toBe(false);
}, 30_000);
