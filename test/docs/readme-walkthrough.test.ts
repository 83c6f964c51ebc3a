// The README's "Two minutes" walkthrough runs as written, twice in a row, in a directory that holds
// only what a fresh clone holds (no database). It is pasted into a terminal, so the test pastes it:
// written to an interactive bash on a pseudo-terminal (Bun's `terminal` spawn option), with job
// control and a prompt between commands, where `kill %1 %2` stops each job's whole process group
// as it does for the person pasting it. Only the ports differ from the defaults (XPAY_PORT and
// HOOK_PORT, which the block reads), so the test never meets another listener.
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
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
      // `wait` for the stopped jobs before `exit`: zsh refuses the first exit while a job still runs.
      p.terminal!.write(`${block}wait\nexit\n`);
      const timer = setTimeout(() => p.kill("SIGKILL"), 60_000); // an interactive shell ignores SIGTERM
      await p.exited;
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

test("the walkthrough captures the trade number and stops its jobs itself (no placeholders to fill in)", () => {
  const block = walkthrough(readFileSync(join(repo, "README.md"), "utf8"));
  expect(block).not.toMatch(/<trade_no>|<[a-z_]+>/);
  expect(block).toMatch(/^TRADE_NO=\$\(/m);
  expect(block).toMatch(/^kill %1 %2/m);
  // An interactive zsh reads `#` as a word, so a comment would become arguments or a command.
  expect(block).not.toMatch(/(^|\s)#/m);
});
