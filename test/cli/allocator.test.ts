// serve restarts itself with MIMALLOC_PURGE_HOLES=0 (src/cli/allocator.ts): in the same process
// (a supervisor's pid stays the server's), with bun's own flags kept, and never over an operator's
// value. The executable's restart is checked by scripts/smoke-binary.ts.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { commandOf } from "../../src/cli/allocator.ts";
import { tempDir } from "../helpers.ts";

describe("the command the arguments name", () => {
  test.each([
    [["serve"], "serve"],
    [["serve", "--port", "0"], "serve"],
    [["--db", "/tmp/x.db", "serve"], "serve"],
    [["--db=/tmp/x.db", "serve"], "serve"],
    [["--db", "serve"], undefined], // a database file named serve, and no command
    [["order", "list"], "order"],
    [["merchant", "add", "--name", "serve"], "merchant"],
    [["-v"], undefined],
    [[], undefined],
  ] as const)("%j: %s", (args, command) => {
    expect(commandOf(args)).toBe(command);
  });
});

const ROOT = resolve(".");
const dir = tempDir("xpay-allocator-");
const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});
const db = join(dir, "xpay.db");
const BUN = join(ROOT, "node_modules/.bin/bun");

/** Starts serve with `cmd` and the variable as given; answers what the serving process runs with. */
async function serveWith(cmd: string[], purgeHoles: string | undefined) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", XPAY_DB: db, PATH: `${join(ROOT, "node_modules/.bin")}:${process.env.PATH}` };
  delete env.MIMALLOC_PURGE_HOLES;
  if (purgeHoles !== undefined) env.MIMALLOC_PURGE_HOLES = purgeHoles;
  const p = Bun.spawn([...cmd, "serve", "--port", "0", "--no-admin"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  started.push(p);
  const reader = p.stdout.getReader();
  let out = "";
  while (!out.includes("listening")) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`serve stopped: ${out} ${await new Response(p.stderr).text()}`);
    out += new TextDecoder().decode(chunk.value);
  }
  const port = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1];
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  const environ = readFileSync(`/proc/${p.pid}/environ`, "utf8").split("\0");
  const argv = readFileSync(`/proc/${p.pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  const childrenFile = `/proc/${p.pid}/task/${p.pid}/children`;
  const children = existsSync(childrenFile) ? readFileSync(childrenFile, "utf8").trim() : "";
  p.kill("SIGTERM");
  expect(await p.exited).toBe(0);
  expect(await new Response(p.stderr).text()).not.toContain("Warning"); // Bun's note that execve is experimental is not shown
  return { setting: environ.find((e) => e.startsWith("MIMALLOC_PURGE_HOLES=")), argv, children };
}

describe.if(existsSync("/proc/self/environ"))("serve's own process", () => {
  expect(Bun.spawnSync([BUN, "src/cli/main.ts", "--db", db, "migrate"]).exitCode).toBe(0);

  test("bun src/cli/main.ts serve: restarted in the same process with the setting, bun's flags kept", async () => {
    const r = await serveWith([BUN, "--smol", join(ROOT, "src/cli/main.ts")], undefined);
    expect(r.setting).toBe("MIMALLOC_PURGE_HOLES=0");
    expect(r.argv.slice(1)).toEqual(["--smol", join(ROOT, "src/cli/main.ts"), "serve", "--port", "0", "--no-admin"]);
    expect(r.children).toBe("");
  }, 30_000);

  test("bin/xpay serve: the same", async () => {
    const r = await serveWith([join(ROOT, "bin/xpay")], undefined);
    expect(r.setting).toBe("MIMALLOC_PURGE_HOLES=0");
    expect(r.argv.slice(-5)).toEqual([join(ROOT, "bin/xpay"), "serve", "--port", "0", "--no-admin"]);
  }, 30_000);

  test("an operator's value is kept", async () => {
    const r = await serveWith([BUN, join(ROOT, "src/cli/main.ts")], "1");
    expect(r.setting).toBe("MIMALLOC_PURGE_HOLES=1");
    expect(r.argv.slice(1)).toEqual([join(ROOT, "src/cli/main.ts"), "serve", "--port", "0", "--no-admin"]);
  }, 30_000);
});
