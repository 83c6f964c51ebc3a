// The README's "Two minutes" walkthrough runs as written, twice in a row, in a directory that holds
// only what a fresh clone holds (no database). It is pasted into a terminal, so the test pastes it:
// written to an interactive bash (and zsh) on a pseudo-terminal (Bun's `terminal` spawn option),
// then an empty line for its "press Enter to stop". It is also saved and run as a script
// (`bash walk.sh`, issue 31): it succeeds and leaves no process behind, and on a port another
// program holds it stops at serve's "already in use" line with a non-zero status. Only the ports
// differ from the defaults (XPAY_PORT and HOOK_PORT, which the block reads), so the test never
// meets another listener but the one it makes itself.
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers.ts";

const SECRET = "a1b2c3d4e5f60718293a4b5c6d7e8f90"; // the one the walkthrough gives merchant 1001
const repo = resolve(import.meta.dir, "../..");
const dir = tempDir("xpay-walkthrough-");
const tmp = join(dir, "tmp");
mkdirSync(tmp);
afterAll(() => {
  killLeftovers();
  rmSync(dir, { recursive: true, force: true });
});

/** Should a run fail to stop its jobs, end them anyway: only processes whose TMPDIR is this test's. */
function killLeftovers(): void {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`TMPDIR=${tmp}`)) process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone already, or not ours to read
    }
  }
}

/** The first ```sh block under "## Two minutes". */
export function walkthrough(readme: string): string {
  const section = readme.split(/^## Two minutes.*\n/m)[1] ?? "";
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(section);
  if (!block) throw new Error("no ```sh block under ## Two minutes");
  return block[1]!;
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = s.port!;
  await s.stop(true);
  return port;
}

/** Nothing listens on the port within 5 s (a stopping server finishes its requests first). */
async function freed(port: number): Promise<boolean> {
  for (const until = Date.now() + 5000; Date.now() < until; await Bun.sleep(100)) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    } catch {
      return true;
    }
  }
  return false;
}

/** The notification's own signature check (the spec's MD5 rule), independent of xpay's code. */
function signedByMerchant(body: string): boolean {
  const params = new URLSearchParams(body);
  const text = [...params.keys()].filter((k) => k !== "sign" && k !== "sign_type" && params.get(k) !== "").sort().map((k) => `${k}=${params.get(k)}`).join("&");
  return createHash("md5").update(text + SECRET).digest("hex") === params.get("sign");
}

/** Interactive shells without their rc files: bash always, zsh (macOS's shell) where installed. */
const SHELLS = [
  { name: "bash", argv: ["bash", "--norc", "--noprofile", "-i"] },
  { name: "zsh", argv: ["zsh", "-f", "-i"] },
];

for (const shell of SHELLS) {
  test.skipIf(!Bun.which(shell.argv[0]!))(`the README walkthrough pasted twice into ${shell.name} in a fresh clone: a paid order, a signed notification, nothing left running`, async () => {
    const home = join(dir, shell.name);
    const clone = join(home, "clone");
    mkdirSync(clone, { recursive: true });
    // What a fresh clone after `npm install` has that the block uses; no xpay.db.
    for (const entry of ["package.json", "bin", "src", "node_modules"]) symlinkSync(join(repo, entry), join(clone, entry));
    const block = walkthrough(readFileSync(join(repo, "README.md"), "utf8"));
    const ports = { XPAY_PORT: String(await freePort()), HOOK_PORT: String(await freePort()) };
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TERM: "dumb", NO_COLOR: "1", PS1: "$ ",
      TMPDIR: tmp, // the block's mktemp -d lands here and is removed with the test's directory
      npm_config_cache: join(dir, "npm-cache"), npm_config_update_notifier: "false", ...ports,
    };
    const seen: string[] = [];
    for (const run of [1, 2]) {
      let text = "";
      const decoder = new TextDecoder();
      const p = Bun.spawn(shell.argv, {
        cwd: clone, env,
        terminal: { cols: 400, data: (_t, d) => void (text += decoder.decode(d, { stream: true })) },
      });
      p.terminal!.write(block);
      const timer = setTimeout(() => p.kill("SIGKILL"), 60_000); // an interactive shell ignores SIGTERM
      // The Enter the block waits for at its end (the time to look around the console), once asked.
      const asked = (async () => {
        while (!text.includes("to stop\r\n") && p.exitCode === null) await Bun.sleep(100);
        p.terminal!.write("\nexit\n");
      })();
      await p.exited;
      await asked;
      clearTimeout(timer);
      // A background job writes wherever the cursor is (after a prompt, say): search, not split.
      const out = text.replaceAll("\r", "").replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
      const where = `${shell.name} run ${run}:\n${out}`;
      const order = /"trade_no":"(\d{20})"/.exec(out);
      expect(order, where).not.toBeNull();
      const tradeNo = order![1]!;
      expect(out, where).toContain(`paid ${tradeNo}`);
      const notified = [...out.matchAll(/notified: (pid=\S+)/g)].map((m) => m[1]!);
      expect(notified, where).toHaveLength(1);
      const params = new URLSearchParams(notified[0]);
      expect({ pid: params.get("pid"), trade_no: params.get("trade_no"), status: params.get("status"), money: params.get("amount") }, where).toEqual({
        pid: "1001", trade_no: tradeNo, status: "2", money: "1000",
      });
      expect(signedByMerchant(notified[0]!), where).toBe(true);
      expect(out, where).toMatch(/status\s+delivered/);
      // The console's operator, and today's income as the dashboard shows it: one paid order of 10.00.
      expect(out, where).toMatch(/operator added\s+admin\s+log in at http:\/\/127\.0\.0\.1:\d+\/admin/);
      expect(out, where).toMatch(/^total\s+1\s+¥10\.00\s+1\s+100(\.0)?\s*%/m);
      expect(out, where).not.toMatch(/error:|command not found|too many arguments/);
      // Stopped what it started: both ports are free again, so the next run can listen on them.
      expect(await freed(Number(ports.XPAY_PORT)), where).toBe(true);
      expect(await freed(Number(ports.HOOK_PORT)), where).toBe(true);
      seen.push(tradeNo);
    }
    expect(new Set(seen).size).toBe(2);
  }, 150_000);
}

/** Processes started with this TMPDIR (the block's own, whatever their parent): none may outlive it. */
function leftovers(tmpdir: string): number[] {
  const left: number[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`TMPDIR=${tmpdir}`)) left.push(Number(pid));
    } catch {
      // gone already
    }
  }
  return left;
}

/** `bash walk.sh` with stdin closed (no Enter to wait for), in its own clone-like folder. */
async function asScript(name: string, ports: { XPAY_PORT: string; HOOK_PORT: string }) {
  const home = join(dir, name);
  const clone = join(home, "clone");
  const own = join(home, "tmp");
  mkdirSync(clone, { recursive: true });
  mkdirSync(own);
  for (const entry of ["package.json", "bin", "src", "node_modules"]) symlinkSync(join(repo, entry), join(clone, entry));
  writeFileSync(join(home, "walk.sh"), walkthrough(readFileSync(join(repo, "README.md"), "utf8")));
  const started = Date.now();
  const p = Bun.spawn(["bash", join(home, "walk.sh")], {
    cwd: clone, stdin: "ignore", stdout: "pipe", stderr: "pipe",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1", TMPDIR: own, npm_config_cache: join(dir, "npm-cache"), npm_config_update_notifier: "false", ...ports },
  });
  const timer = setTimeout(() => p.kill("SIGKILL"), 60_000);
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  await Bun.sleep(300); // a process killed by the trap is gone from /proc within moments
  return { out: out + err, code, seconds: (Date.now() - started) / 1000, left: leftovers(own) };
}

test("as a script (bash walk.sh) on free ports: a paid, notified order, exit 0, no process left behind", async () => {
  const ports = { XPAY_PORT: String(await freePort()), HOOK_PORT: String(await freePort()) };
  const r = await asScript("script-free", ports);
  expect({ code: r.code, left: r.left }, r.out).toEqual({ code: 0, left: [] });
  expect(r.out).toMatch(/^paid \d{20}/m);
  expect(r.out).toMatch(/notified: pid=1001&trade_no=\d{20}&.*status=2/);
  expect(r.out).toMatch(/status\s+delivered/);
  expect(await freed(Number(ports.XPAY_PORT))).toBe(true);
  expect(await freed(Number(ports.HOOK_PORT))).toBe(true);
}, 90_000);

test("as a script with another program on XPAY_PORT: stops at serve's port-in-use line, non-zero, fast, nothing left", async () => {
  // The other gateway: answers /healthz like one, so a loop that only polled it would carry on.
  const other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ status: "ok" }) });
  try {
    const r = await asScript("script-busy", { XPAY_PORT: String(other.port), HOOK_PORT: String(await freePort()) });
    expect(r.out).toContain(`error: port ${other.port} on 127.0.0.1 is already in use; choose another with --port`);
    expect({ code: r.code, left: r.left }).toEqual({ code: 1, left: [] });
    expect(r.out).not.toMatch(/trade_no|unknown merchant|too many arguments|notified/);
    expect(r.seconds).toBeLessThan(30);
  } finally {
    await other.stop(true);
  }
}, 90_000);

test("the walkthrough captures the trade number and stops what it started itself (no placeholders to fill in)", () => {
  const block = walkthrough(readFileSync(join(repo, "README.md"), "utf8"));
  expect(block).not.toMatch(/<trade_no>|<[a-z_]+>/);
  expect(block).toMatch(/^TRADE_NO=\$\(/m);
  // What runs in the background is started without npx (whose child outlives a kill of npx), and
  // the subshell's EXIT trap ends it on every way out (the end, a failed start, Ctrl-C).
  expect(block).not.toMatch(/^npx .*&$/m);
  expect(block).toMatch(/^trap 'kill \$SERVE \$HOOK 2>\/dev\/null' EXIT$/m);
  // An interactive zsh reads `#` as a word, so a comment would become arguments or a command.
  expect(block).not.toMatch(/(^|\s)#/m);
});
