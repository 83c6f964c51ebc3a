// Issue 31: each guide's shell examples run top to bottom, as printed, against a fresh gateway, and
// print the answers the guide shows. The convention (which blocks run, how an answer is marked:
// `# → TEXT`, `...` for what changes) is in ./guide-blocks.ts. The merchant guide runs against
// `xpay dev` (its test merchant is the guide's example merchant), the operator guide against a new
// `xpay serve` database; both on free ports, in a temp folder, with `xpay` on PATH working on that
// gateway's database. Only BASE / XPAY_URL and HOOK_PORT are set from outside: the guides define
// them with the defaults a reader gets. The README's walkthrough has its own test
// (readme-walkthrough.test.ts); its other blocks are marked as not run.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers.ts";
import { missingAnswers, outputOf, script, type ShellBlock, shellBlocks } from "./guide-blocks.ts";

const ROOT = resolve(import.meta.dir, "../..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const dir = tempDir("xpay-guides-");
const groups: number[] = [];
afterAll(() => {
  for (const g of groups) {
    try {
      process.kill(-g, "SIGKILL");
    } catch {}
  }
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = s.port!;
  await s.stop(true);
  return port;
}

/** A gateway (`args` after `--db DB`) on a free port, started the way a reader starts it. */
async function gateway(name: string, command: string[]) {
  const home = join(dir, name);
  const work = join(home, "work");
  const bin = join(home, "bin");
  mkdirSync(work, { recursive: true });
  mkdirSync(bin);
  const db = join(home, "xpay.db");
  const port = await freePort();
  const env = { ...process.env, NO_COLOR: "1", XPAY_DB: db, HOME: home };
  // `xpay` on PATH: this checkout's CLI on the gateway's database (xpay dev ignores XPAY_DB: --db).
  writeFileSync(join(bin, "xpay"), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, "src/cli/main.ts")}" "$@"\n`);
  chmodSync(join(bin, "xpay"), 0o755);
  const log = join(home, "gateway.log");
  const proc = Bun.spawn(["setsid", process.execPath, join(ROOT, "src/cli/main.ts"), "--db", db, ...command, "--port", String(port)], { cwd: work, env, stdout: Bun.file(log), stderr: Bun.file(log) });
  groups.push(proc.pid);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    if (proc.exitCode !== null) throw new Error(`the gateway did not start: ${readFileSync(log, "utf8")}`);
    await Bun.sleep(100);
  }
  return { home, work, bin, db, base, env, proc };
}

/** Runs the blocks in one bash (its own process group), returns everything printed. */
async function runBlocks(g: Awaited<ReturnType<typeof gateway>>, blocks: ShellBlock[], vars: Record<string, string>): Promise<string> {
  const file = join(g.home, "guide.sh");
  writeFileSync(file, script(blocks));
  const out = join(g.home, "guide.out");
  const env = { ...g.env, ...vars, PATH: `${g.bin}:${join(ROOT, "node_modules/.bin")}:${process.env.PATH}` };
  // Output to a file: the stand-in merchant a block starts keeps a pipe open after the script ends.
  const p = Bun.spawn(["setsid", "bash", "--noprofile", "--norc", file], { cwd: g.work, env, stdout: Bun.file(out), stderr: "inherit", stdin: "ignore" });
  groups.push(p.pid);
  const code = await Promise.race([p.exited, Bun.sleep(150_000).then(() => "timeout")]);
  try {
    process.kill(-p.pid, "SIGTERM"); // what the blocks left running (the stand-in merchant)
  } catch {}
  const all = `${readFileSync(out, "utf8")}${code === "timeout" ? "\n@@timeout\n" : ""}`;
  // XPAY_GUIDE_OUT=FOLDER keeps what each guide printed (for whoever writes the next `# →` line).
  if (process.env.XPAY_GUIDE_OUT) writeFileSync(join(process.env.XPAY_GUIDE_OUT, `${g.home.split("/").pop()}.out`), all);
  return all;
}

/** Per block that runs: where it is, and what went wrong (nothing: []). */
function problems(guide: string, blocks: ShellBlock[], all: string, ports: { base: string; hookPort: string }) {
  const found: { at: string; problems: string[] }[] = [];
  blocks.forEach((b, i) => {
    if (b.notRun !== null) return;
    const at = `${guide}:${b.line}`;
    const out = outputOf(all, i);
    if (out === null) return found.push({ at, problems: ["the run never reached the end of this block"] });
    const bad = [
      ...out.split("\n").filter((l) => l.startsWith("@@error") || /command not found|No such file or directory/.test(l)),
      ...missingAnswers(b.answers, out, ports).map((a) => `missing answer: ${a}`),
    ];
    if (bad.length > 0) found.push({ at, problems: [...bad, "--- printed:", ...out.split("\n").slice(0, 40)] });
  });
  return found;
}

describe("the guides run top to bottom as printed", () => {
  test("README: every shell block is the walkthrough (tested on its own) or says why it does not run", () => {
    const blocks = shellBlocks(read("README.md"));
    const running = blocks.filter((b) => b.notRun === null);
    expect(running.length).toBe(1);
    expect(running[0]!.code).toStartWith("export XPAY_DB=$(mktemp -d)/xpay.db");
  });

  test("docs/merchant-guide.md against xpay dev", async () => {
    const blocks = shellBlocks(read("docs/merchant-guide.md"));
    expect(blocks.filter((b) => b.notRun === null).length).toBeGreaterThan(15);
    const g = await gateway("merchant", ["dev"]);
    const hookPort = String(await freePort());
    const all = await runBlocks(g, blocks, { BASE: g.base, HOOK_PORT: hookPort });
    expect(problems("docs/merchant-guide.md", blocks, all, { base: g.base, hookPort })).toEqual([]);
  }, 200_000);

  test("docs/operator-guide.md against a new xpay serve", async () => {
    const blocks = shellBlocks(read("docs/operator-guide.md"));
    expect(blocks.filter((b) => b.notRun === null).length).toBeGreaterThan(10);
    const g = await gateway("operator", ["serve"]);
    const hookPort = String(await freePort());
    const all = await runBlocks(g, blocks, { XPAY_URL: g.base, HOOK_PORT: hookPort });
    expect(problems("docs/operator-guide.md", blocks, all, { base: g.base, hookPort })).toEqual([]);
  }, 200_000);
});
