// `xpay serve` failing to start says why in one line and exits 1: port taken, database locked,
// database not openable.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";

const dir = tempDir("xpay-serve-err-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(db: string, port: number) {
  const p = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", db, "serve", "--port", String(port)], { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  const code = await Promise.race([p.exited, Bun.sleep(15_000).then(() => (p.kill("SIGKILL"), "hung"))]);
  return { code, err: (await new Response(p.stderr).text()).trim() };
}

test("port already in use", async () => {
  const taken = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  try {
    const r = await serve(join(dir, "a.db"), taken.port!);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`error: port ${taken.port} on 127.0.0.1 is already in use; choose another with --port`);
  } finally {
    taken.stop(true);
  }
});

test("database locked by another process's write transaction", async () => {
  const path = join(dir, "locked.db");
  expect(Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", path, "migrate"]).exitCode).toBe(0);
  const holder = new Database(path);
  holder.exec("PRAGMA journal_mode = WAL");
  holder.exec("BEGIN EXCLUSIVE");
  try {
    const r = await serve(path, 0);
    expect(r.code).toBe(1);
    expect(r.err).toContain("locked");
    expect(r.err.split("\n")).toHaveLength(1);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
}, 30_000);

test("database in a directory that does not exist", async () => {
  const r = await serve(join(dir, "missing", "x.db"), 0);
  expect(r.code).toBe(1);
  expect(r.err).toStartWith("error: cannot open database");
  expect(r.err).not.toContain("    at ");
});
