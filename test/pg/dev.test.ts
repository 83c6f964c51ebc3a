// `xpay dev --db postgres://...` (issue 20: every command on both stores): an empty database becomes
// a test database (marked, so a later `xpay dev` may use it again, orders kept); an operator's
// database (xpay's tables, no mark) or another application's is refused before anything is written.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { ROOT, startDev } from "../dev/dev-process.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

const xpay = (...args: string[]) => {
  const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

withPostgres(() => {
  let cluster: PgCluster | null = null;
  const started: Bun.Subprocess[] = [];
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(() => {
    for (const p of started) if (p.exitCode === null) p.kill(9);
    cluster?.stop();
  });

  const tables = async (url: string) => {
    const sql = new SQL(url, { max: 1 });
    const rows = (await sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`) as { tablename: string }[];
    await sql.close();
    return rows.map((r) => r.tablename);
  };

  test("an empty database: the test gateway runs on it, pays by the dev route, and runs again on it later", async () => {
    const url = await cluster!.createDatabase("devdb");
    const first = await startDev(["--db", url, "dev", "--port", "0"]);
    started.push(first.proc);
    expect(first.out()).not.toContain("temporary: removed");
    const created = JSON.parse(Bun.spawnSync(["bash", "-c", first.curl]).stdout.toString()) as { code: number; data: { trade_no: string } };
    expect(created.code).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await startDev(["--db", url, "dev", "--port", "0"]);
    started.push(second.proc);
    const paid = await fetch(`${second.base}/dev/orders/${created.data.trade_no}/pay`, { method: "POST" });
    expect(paid.status).toBe(200);
    expect(await second.stop()).toBe(0);
    const sql = new SQL(url, { max: 1 });
    expect(Number((await sql`SELECT status FROM orders WHERE trade_no = ${created.data.trade_no}`)[0].status)).toBe(2);
    await sql.close();
  }, 60_000);

  test("an operator's database (xpay's tables, not made by xpay dev) is refused and left as it was", async () => {
    const url = await cluster!.createDatabase("real");
    expect(xpay("--db", url, "migrate").code).toBe(0);
    const before = await tables(url);
    const r = xpay("--db", url, "dev", "--port", "0");
    expect(r.code).toBe(1);
    expect(r.err).toContain("is not a database made by xpay dev");
    expect(r.err).not.toContain("password"); // the URL is shown without one (there is none here either)
    expect(await tables(url)).toEqual(before);
    const sql = new SQL(url, { max: 1 });
    expect(Number((await sql`SELECT count(*) AS n FROM merchants`)[0].n)).toBe(0);
    await sql.close();
  }, 30_000);

  test("another application's database is refused too", async () => {
    const url = await cluster!.createDatabase("other");
    const sql = new SQL(url, { max: 1 });
    await sql`CREATE TABLE customers (id int)`;
    await sql.close();
    const r = xpay("--db", url, "dev", "--port", "0");
    expect(r.code).toBe(1);
    expect(r.err).toContain("is not a database made by xpay dev");
    expect(await tables(url)).toEqual(["customers"]);
  }, 30_000);
});
