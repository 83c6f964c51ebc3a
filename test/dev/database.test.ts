// Issue 19: which database `xpay dev` uses. A throwaway folder by default, removed on exit
// (SIGINT or SIGTERM); XPAY_DB is ignored, so an operator's shell never sends the public test
// merchant into a real database; --db takes a new file or one xpay dev made, and refuses any other.
import { afterAll, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { snapshot } from "../cli/run-cli.ts";
import { tempDir } from "../helpers.ts";
import { ROOT, startDev } from "./dev-process.ts";

const dir = tempDir("xpay-dev-db-");
const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const xpay = (...args: string[]) => {
  const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

const real = join(dir, "real.db");
expect(xpay("--db", real, "migrate").code).toBe(0);
expect(xpay("--db", real, "merchant", "add", "--name", "Real shop", "--pid", "2001").code).toBe(0);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`without --db: a temporary database, XPAY_DB ignored; the folder is removed on ${signal}`, async () => {
    const before = snapshot(real);
    const dev = await startDev(["dev", "--port", "0"], { XPAY_DB: real });
    started.push(dev.proc);
    expect(dev.db).not.toBe(real);
    expect(dev.out()).toContain("(temporary: removed on exit)");
    const folder = dirname(dev.db);
    expect(dev.keysDir.startsWith(folder)).toBe(true);
    expect(existsSync(dev.db)).toBe(true);
    expect(await dev.stop(signal)).toBe(0);
    expect(existsSync(folder)).toBe(false);
    expect(snapshot(real)).toBe(before);
  }, 20_000);
}

test("--db refuses a database xpay dev did not make, and changes nothing in it", () => {
  const before = snapshot(real);
  const r = xpay("--db", real, "dev", "--port", "0");
  expect(r.code).toBe(1);
  expect(r.err).toBe(`error: ${real} is not a database made by xpay dev; xpay dev never runs on a real database (its merchant and keys are public test values): give a new file or leave --db out\n`);
  expect(snapshot(real)).toBe(before);
  expect(existsSync(`${real}-keys`)).toBe(false);
});

test("--db on a database an earlier xpay dev made: the same test merchant, its orders kept", async () => {
  const path = join(dir, "kept.db");
  const first = await startDev(["--db", path, "dev", "--port", "0"]);
  started.push(first.proc);
  const created = Bun.spawnSync(["bash", "-c", first.curl]);
  const tradeNo = (JSON.parse(created.stdout.toString()) as { data: { trade_no: string } }).data.trade_no;
  expect(await first.stop()).toBe(0);
  const second = await startDev(["--db", path, "dev", "--port", "0"]);
  started.push(second.proc);
  expect(second.out()).not.toContain("temporary");
  expect([second.pid, second.secret]).toEqual(["1001", "a1b2c3d4e5f60718293a4b5c6d7e8f90"]);
  const res = await fetch(`${second.base}/dev/orders/${tradeNo}/pay`, { method: "POST" });
  expect(res.status).toBe(200);
  expect(await second.stop()).toBe(0);
  expect(existsSync(path)).toBe(true);
}, 30_000);

test("bad flags are one line each, before anything is made", () => {
  expect(xpay("dev", "--port", "x").err).toBe('error: --port must be a whole number from 0 to 65535 (0 picks a free port), not "x"\n');
  expect(xpay("dev", "--notify-url", "ftp://x").err).toBe('error: --notify-url must be an http:// or https:// URL, not "ftp://x"\n');
  expect(xpay("--db", "", "dev").err).toBe("error: --db is empty; give a file for the test database, e.g. --db ./xpay-dev.db\n");
});

test("a bad --db is the line shown even when the port is taken (issue 31: the case above ran on 8080)", async () => {
  const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy") });
  try {
    expect(xpay("--db", "", "dev", "--port", String(busy.port)).err).toBe("error: --db is empty; give a file for the test database, e.g. --db ./xpay-dev.db\n");
  } finally {
    await busy.stop(true);
  }
});

test("--json: the setup as one JSON line (a CI reads it instead of the quick start), then JSON log lines", async () => {
  const p = Bun.spawn([process.execPath, "src/cli/main.ts", "dev", "--port", "0", "--json"], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  started.push(p);
  const reader = p.stdout.getReader();
  let out = "";
  while (!out.includes('"dev.ready"')) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(out);
    out += new TextDecoder().decode(chunk.value);
  }
  const lines = out.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  const ready = lines.find((l) => l.event === "dev.ready")! as { base_url: string; pid: number; app_secret: string; key_files: Record<string, string>; example_curl: string; retry_delays_s: number[] };
  expect(ready).toMatchObject({ pid: 1001, app_secret: "a1b2c3d4e5f60718293a4b5c6d7e8f90", retry_delays_s: [1, 2, 5, 10, 30, 60, 120, 300] });
  expect(existsSync(ready.key_files.platform_public_key!)).toBe(true);
  const created = JSON.parse(Bun.spawnSync(["bash", "-c", ready.example_curl]).stdout.toString()) as { code: number };
  expect(created.code).toBe(200);
  p.kill("SIGTERM");
  expect(await p.exited).toBe(0);
}, 20_000);
