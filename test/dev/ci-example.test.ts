// Issue 19: the merchant guide's CI example ("Testing your integration", "In CI") is run as
// written: each step's `run:` block in its own bash, as GitHub Actions runs them (bash -eo
// pipefail, background jobs outliving their step), with `xpay` on PATH. Only the ports change (free
// ones); the last step ("Your shop's tests") is the reader's own.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { ROOT } from "./dev-process.ts";

const GUIDE = readFileSync(join(ROOT, "docs", "merchant-guide.md"), "utf8");
const section = GUIDE.split("### In CI\n")[1]!.split(/^#{2,3} /m)[0]!;
const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;

/** The named steps: `run: |` blocks de-indented, or a one-line `run:`. */
function steps(text: string): { name: string; script: string }[] {
  const out: { name: string; script: string }[] = [];
  const re = /^( *)- name: (.+)\n\1  run: (?:\|\n((?:\1    .*\n|\n)+)|(.+)\n)/gm;
  for (const m of text.matchAll(re)) out.push({ name: m[2]!, script: m[4] ?? m[3]!.split("\n").map((l) => l.slice(m[1]!.length + 4)).join("\n") });
  return out;
}

const dir = tempDir("xpay-ci-");
const groups: number[] = [];
afterAll(() => {
  for (const g of groups) {
    try {
      process.kill(-g, "SIGKILL");
    } catch {}
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A folder with `xpay` in it: this checkout's CLI (see the first test). */
function xpayOnPath(): string {
  const bin = join(dir, "bin");
  Bun.spawnSync(["mkdir", "-p", bin]);
  writeFileSync(join(bin, "xpay"), `#!/bin/sh\ncd "${ROOT}" && exec "${process.execPath}" src/cli/main.ts "$@"\n`);
  chmodSync(join(bin, "xpay"), 0o755);
  return bin;
}

const freePort = () => {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
};

test("the guide's CI job: start xpay dev, wait for /healthz, create an order, pay it, get the notification", async () => {
  const all = steps(yaml);
  expect(all.map((s) => s.name)).toEqual(["Start the xpay test gateway", "Create an order, pay it, receive the notification", "Your shop's tests"]);
  expect(yaml).toContain("XPAY_URL: http://127.0.0.1:8080");
  const [devPort, hookPort] = [freePort(), freePort()];
  const ports = (s: string) => s.replaceAll("8080", String(devPort)).replaceAll("9999", String(hookPort));

  // `xpay` on PATH: this checkout's CLI, run from the checkout as the compiled executable carries
  // its own sources (bun resolves the JSX runtime from the checkout's tsconfig); xpay dev writes
  // nothing relative to its working directory.
  const bin = xpayOnPath();
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, XPAY_URL: `http://127.0.0.1:${devPort}`, NO_COLOR: "1" };

  for (const [i, step] of all.slice(0, 2).entries()) {
    // setsid: each step is a process group of its own, so what it left running can be stopped.
    // Output goes to a file: a job left running keeps a pipe open long after the step ends.
    const output = join(dir, `step-${i}.out`);
    const p = Bun.spawn(["setsid", "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", `echo $$ >> pgids\n${ports(step.script)}`], { cwd: dir, env, stdout: Bun.file(output), stderr: Bun.file(output) });
    const code = await Promise.race([p.exited, Bun.sleep(30_000).then(() => "timeout")]);
    for (const g of readFileSync(join(dir, "pgids"), "utf8").trim().split("\n").map(Number)) if (!groups.includes(g)) groups.push(g);
    expect({ step: step.name, code, out: code === 0 ? "" : readFileSync(output, "utf8") }).toEqual({ step: step.name, code: 0, out: "" });
  }
  expect(readFileSync(join(dir, "notified.txt"), "utf8")).toMatch(/trade_no=\d{20}.*status=2/);

  // The job ends: the runner stops what the steps left running; xpay dev removes its database.
  const log = readFileSync(join(dir, "xpay-dev.log"), "utf8");
  const db = /^database\s+(\S+)/m.exec(log)![1]!;
  expect(existsSync(db)).toBe(true);
  for (const g of groups) process.kill(-g, "SIGTERM");
  for (let i = 0; i < 100 && existsSync(db); i++) await Bun.sleep(50);
  expect(existsSync(db)).toBe(false);
}, 60_000);

test("the start step on a port another program holds: fails at once with xpay dev's port line (issue 31)", async () => {
  const start = steps(yaml)[0]!;
  // Another server answering /healthz there: a wait that polled the port alone would go on.
  const other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ status: "ok" }) });
  try {
    const work = join(dir, "busy");
    Bun.spawnSync(["mkdir", "-p", work]);
    const bin = xpayOnPath();
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, XPAY_URL: `http://127.0.0.1:${other.port}`, NO_COLOR: "1" };
    const p = Bun.spawn(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", start.script.replaceAll("8080", String(other.port))], { cwd: work, env, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), Promise.race([p.exited, Bun.sleep(30_000).then(() => "timeout")])]);
    expect({ code, said: (out + err).includes(`error: port ${other.port} on 127.0.0.1 is already in use`) }).toEqual({ code: 1, said: true });
  } finally {
    await other.stop(true);
  }
}, 60_000);
