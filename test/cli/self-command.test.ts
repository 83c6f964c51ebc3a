// Issue 31 item 5: the commands xpay prints run where they are printed. Outside the checkout there
// is no `xpay` on PATH and `npx xpay` would ask the npm registry for somebody else's package, so
// xpay dev prints the absolute bun + main.ts; inside the checkout `npx xpay`; the compiled binary
// its own path, or `xpay` when PATH finds that same file.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { selfCommand } from "../../src/cli/self.ts";
import { tempDir } from "../helpers.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const dir = tempDir("xpay-self-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("selfCommand", () => {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const binary = join(bin, "xpay-0.1.0-linux-x64");
  writeFileSync(binary, "");
  symlinkSync(binary, join(bin, "xpay"));
  const base = { execPath: process.execPath, checkout: ROOT, cwd: dir, onPath: null };

  test("compiled: `xpay` only when PATH finds this same file, else its absolute path", () => {
    expect(selfCommand({ ...base, compiled: true, execPath: binary, onPath: join(bin, "xpay") })).toBe("xpay");
    expect(selfCommand({ ...base, compiled: true, execPath: binary, onPath: "/usr/bin/true" })).toBe(binary);
    expect(selfCommand({ ...base, compiled: true, execPath: "/opt/my xpay/xpay" })).toBe("'/opt/my xpay/xpay'");
  });

  test("from source: `npx xpay` inside the checkout, the absolute bun and main.ts outside, `xpay` once linked", () => {
    expect(selfCommand({ ...base, compiled: false, cwd: join(ROOT, "docs") })).toBe("npx xpay");
    expect(selfCommand({ ...base, compiled: false })).toBe(`${process.execPath} ${join(ROOT, "src/cli/main.ts")}`);
    const linked = join(dir, "linked");
    symlinkSync(join(ROOT, "bin", "xpay"), linked); // npm link / ln -s "$PWD/bin/xpay" ~/.local/bin/xpay
    expect(selfCommand({ ...base, compiled: false, onPath: linked })).toBe("xpay");
  });

  test("under npx (node_modules/.bin first on PATH) the line read in a terminal is still `npx xpay`", () => {
    // npx runs the checkout's own bin through a link in its cache (~/.npm/_npx/HASH/node_modules/.bin).
    const npxBin = join(dir, "_npx", "node_modules", ".bin");
    mkdirSync(npxBin, { recursive: true });
    symlinkSync(join(ROOT, "bin", "xpay"), join(npxBin, "xpay"));
    const npxPath = [npxBin, "/usr/bin", "/bin"].join(":");
    expect(Bun.which("xpay", { PATH: npxPath })).not.toBeNull(); // what npx's PATH finds
    // A process started as npx starts it (its PATH is read once, at start).
    const script = `import { selfCommand, selfContext } from ${JSON.stringify(join(ROOT, "src/cli/self.ts"))}; const c = selfContext(); console.log(JSON.stringify([c.onPath, selfCommand(c)]));`;
    const p = Bun.spawnSync([process.execPath, "-e", script], { cwd: ROOT, env: { ...process.env, PATH: npxPath } });
    expect(JSON.parse(p.stdout.toString())).toEqual([null, "npx xpay"]);
  });
});

test("xpay dev started from a folder outside the checkout prints a command that runs in that folder", async () => {
  const cwd = join(dir, "elsewhere");
  mkdirSync(cwd);
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", PATH: "/usr/bin:/bin" }; // no xpay, no bun on PATH
  const p = Bun.spawn([process.execPath, join(ROOT, "src/cli/main.ts"), "dev", "--port", "0"], { cwd, env, stdout: "pipe", stderr: "pipe" });
  try {
    const reader = p.stdout.getReader();
    let out = "";
    while (!out.includes("stop: Ctrl-C")) {
      const c = await reader.read();
      if (c.done) throw new Error(`xpay dev stopped: ${out}${await new Response(p.stderr).text()}`);
      out += new TextDecoder().decode(c.value);
    }
    reader.releaseLock();
    const printed = /attempts: (.+ notify show TRADE_NO)/.exec(out)![1]!;
    expect(printed).toStartWith(`${process.execPath} ${join(ROOT, "src/cli/main.ts")} --db `);
    // An order through the printed curl's request, then the printed command, exactly, in that folder.
    const curl = /curl -s (\S+\/xpay\/order\/create) -d '([^']+)'/.exec(out)!;
    const created = ((await (await fetch(curl[1]!, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: curl[2]! })).json()) as { data: { trade_no: string } }).data;
    expect(created.trade_no).toMatch(/^\d{20}$/);
    const base = /^listening\s+(\S+)/m.exec(out)![1]!;
    expect((await fetch(`${base}/dev/orders/${created.trade_no}/pay`, { method: "POST" })).status).toBe(200);
    const run = Bun.spawnSync(["sh", "-c", printed.replace("TRADE_NO", created.trade_no)], { cwd, env });
    expect({ code: run.exitCode, err: run.stderr.toString() }).toEqual({ code: 0, err: "" });
    expect(run.stdout.toString()).toContain(created.trade_no);
  } finally {
    p.kill("SIGTERM");
    await p.exited;
  }
});

test("inside the checkout xpay dev prints `npx xpay`, which runs there", async () => {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  const p = Bun.spawn([process.execPath, "src/cli/main.ts", "dev", "--port", "0"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  try {
    const reader = p.stdout.getReader();
    let out = "";
    while (!out.includes("stop: Ctrl-C")) {
      const c = await reader.read();
      if (c.done) throw new Error(`xpay dev stopped: ${out}`);
      out += new TextDecoder().decode(c.value);
    }
    reader.releaseLock();
    const printed = /attempts: (.+) notify show TRADE_NO/.exec(out)![1]!;
    expect(printed).toStartWith("npx xpay --db ");
    const run = Bun.spawnSync(["sh", "-c", `${printed} order list --json`], { cwd: join(ROOT, "docs"), env });
    expect({ code: run.exitCode, err: run.stderr.toString() }).toEqual({ code: 0, err: "" });
  } finally {
    p.kill("SIGTERM");
    await p.exited;
  }
});
