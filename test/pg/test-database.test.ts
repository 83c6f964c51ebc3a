// A test database never serves production, on PostgreSQL too (issue 27): `xpay dev --db
// postgres://...` makes a test database; `xpay serve` on it refuses in one line; `xpay db copy` out
// of it (to SQLite or to PostgreSQL) is refused unless --drop-test-data, which leaves the test keys,
// the mark and the test merchant with every row of theirs behind; and a SQLite test database copied
// into PostgreSQL with --drop-test-data satisfies PostgreSQL's foreign keys.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startDev } from "../dev/dev-process.ts";
import { tempDir } from "../helpers.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

const xpay = (...args: string[]) => {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.XPAY_DB;
  const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", ...args], { cwd: ROOT, env });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

withPostgres(() => {
  let cluster: PgCluster | null = null;
  const started: Bun.Subprocess[] = [];
  const dir = tempDir("xpay-pg-testdb-");
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(() => {
    for (const p of started) if (p.exitCode === null) p.kill(9);
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = async (url: string, q: string) => {
    const sql = new SQL(url, { max: 1 });
    try {
      return Number((await sql.unsafe(q))[0].n);
    } finally {
      await sql.close();
    }
  };

  async function devDatabase(db: string): Promise<void> {
    const dev = await startDev(["--db", db, "dev", "--port", "0"]);
    started.push(dev.proc);
    const created = JSON.parse(Bun.spawnSync(["bash", "-c", dev.curl]).stdout.toString()) as { data: { trade_no: string } };
    expect((await fetch(`${dev.base}/dev/orders/${created.data.trade_no}/pay`, { method: "POST" })).status).toBe(200);
    expect(await dev.stop()).toBe(0);
    expect(xpay("--db", db, "merchant", "add", "--name", "Own shop", "--pid", "2001").code).toBe(0);
  }

  test("serve refuses a PostgreSQL test database; db copy out of it needs --drop-test-data, which leaves the test data behind", async () => {
    const url = await cluster!.createDatabase("devpg");
    await devDatabase(url);
    const orders = await count(url, "SELECT count(*) AS n FROM orders");

    const served = xpay("--db", url, "serve", "--port", "0");
    expect(served.code).toBe(1);
    expect(served.err.trim().split("\n")).toHaveLength(1);
    expect(served.err).toContain("was made by xpay dev (it holds the xpay dev mark");
    expect(served.err).toContain("xpay serve never runs on a test database: begin a real one with");
    expect(await count(url, "SELECT count(*) AS n FROM orders")).toBe(orders);

    const file = join(dir, "from-pg.db");
    const refused = xpay("db", "copy", "--from", url, "--to", file);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("add --drop-test-data");
    expect(existsSync(file)).toBe(false);

    const copied = xpay("db", "copy", "--from", url, "--to", file, "--drop-test-data", "--json");
    expect(copied.err).toBe("");
    expect(JSON.parse(copied.out).left_out.tables).toMatchObject({ settings: 3, merchants: 1, orders: 1, keyed_clients: 1 });
    const d = new Database(file, { readonly: true });
    try {
      expect(d.query("SELECT pid FROM merchants").all()).toEqual([{ pid: 2001 }]);
      expect(d.query("SELECT count(*) AS n FROM settings WHERE key IN ('dev_database', 'platform_private_key', 'platform_public_key')").get()).toEqual({ n: 0 });
      expect(d.query("SELECT count(*) AS n FROM reports WHERE pid = 1001").get()).toEqual({ n: 0 });
      expect(d.query("PRAGMA foreign_key_check").all()).toEqual([]);
    } finally {
      d.close();
    }
  }, 120_000);

  test("a SQLite test database into PostgreSQL: refused, then copied without its test data (PostgreSQL's foreign keys hold)", async () => {
    const file = join(dir, "dev.db");
    await devDatabase(file);
    const url = await cluster!.createDatabase("topg");
    const refused = xpay("db", "copy", "--from", file, "--to", url);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("add --drop-test-data");
    expect(await count(url, "SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'")).toBe(0);

    const copied = xpay("db", "copy", "--from", file, "--to", url, "--drop-test-data");
    expect(copied.err).toBe("");
    expect(copied.out).toContain("left out test data:");
    expect(await count(url, "SELECT count(*) AS n FROM merchants")).toBe(1);
    expect(await count(url, "SELECT count(*) AS n FROM orders")).toBe(0);
    expect(await count(url, "SELECT count(*) AS n FROM notifications")).toBe(0);
    expect(await count(url, "SELECT count(*) AS n FROM settings WHERE key IN ('dev_database', 'platform_private_key', 'platform_public_key')")).toBe(0);
    // The copy serves: the refusal is gone with the test data.
    const served = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", url, "serve", "--port", "0"], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
    started.push(served);
    const reader = served.stdout.getReader();
    let out = "";
    while (!out.includes("xpay listening")) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`serve stopped: ${out}${await new Response(served.stderr).text()}`);
      out += new TextDecoder().decode(chunk.value);
    }
    served.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  }, 120_000);
});
