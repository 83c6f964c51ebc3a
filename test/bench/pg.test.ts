// `npm run bench:pg` must keep working: one short run (1 s per measurement, no warm-up, one round,
// 8 connections) of the three setups end to end. Asserts that what it measured is real (every
// setup answered, no failed answer, every notification delivered, no amount held twice), never
// its speed. Needs PostgreSQL, as the tests under test/pg.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { withPostgres } from "../pg/cluster.ts";

withPostgres(() => {
  test("npm run bench:pg completes: SQLite, PostgreSQL and two instances measured, no failures, every notification delivered", async () => {
    const root = join(import.meta.dir, "..", "..");
    const child = Bun.spawn([process.execPath, join(root, "bench", "pg.ts")], {
      cwd: root,
      env: {
        ...process.env, BENCH_XPAY_ROOT: root, BENCH_DURATION: "1", BENCH_WARMUP: "0", BENCH_ROUNDS: "1", BENCH_CONNECTIONS: "8",
        BENCH_NOTIFY_ORDERS: "100", BENCH_NOTIFY_CONCURRENCY: "4",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect({ code, err: code === 0 ? "" : err }).toEqual({ code: 0, err: "" });

    // | round | setup | create req/s | vs | p99 | ok / failed / errors | notifications/s | vs | p50 | p99 | report p99 | delivered/matched | not matched | repeats | held twice | reports' warm-up / JIT | stolen |
    const [runs, costs] = out.split(/\n\n/).filter((t) => /^\| \d+ \|/m.test(t));
    const cells = (t: string | undefined) => (t ?? "").split("\n").filter((l) => /^\| \d+ \|/.test(l)).map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
    const rows = cells(runs);
    expect(rows.map((c) => c[1])).toEqual(["SQLite, 1 instance", "PostgreSQL, 1 instance", "PostgreSQL, 2 instances"]);
    for (const [, setup, rps, , , answers, perSecond, , , , , deliveredMatched, unmatched, , heldTwice, reportsWarm] of rows) {
      // BENCH_WARMUP=0: no warm-up before the reports either, and the JIT threads' CPU during them read
      expect(reportsWarm).toMatch(/^0 s \/ \d+ ms$/);
      const [ok, failed, errors] = answers!.split(" / ");
      const [delivered, matched] = deliveredMatched!.split("/");
      expect({ setup, failed, errors, unmatched, heldTwice, delivered }).toEqual({ setup, failed: "0", errors: "0", unmatched: "0", heldTwice: "0", delivered: matched });
      expect(Number(ok)).toBeGreaterThan(0);
      expect(Number(rps)).toBeGreaterThan(0);
      expect(Number(matched)).toBeGreaterThan(0);
      expect(Number(perSecond)).toBeGreaterThan(0);
    }
    // what a create cost: the servers' CPU on every setup; PostgreSQL's CPU, WAL and the create call's statistics on PostgreSQL
    // | round | setup | create req/s | xpay CPU ms | PostgreSQL CPU ms | load generator CPU ms | WAL bytes | statement | warm-up / JIT | stolen |
    const cost = cells(costs);
    expect(cost.map((c) => c[1])).toEqual(["SQLite, 1 instance", "PostgreSQL, 1 instance", "PostgreSQL, 2 instances"]);
    for (const [, setup, , app, pg, , wal, statement, warmJit] of cost) {
      expect(Number(app)).toBeGreaterThan(0);
      // BENCH_WARMUP=0: no warm-up at all (not the wait for the JIT), and the JIT threads' CPU read
      expect(warmJit).toMatch(/^0 s \/ \d+ ms$/);
      if (setup!.startsWith("PostgreSQL")) {
        expect(Number(pg)).toBeGreaterThan(0);
        expect(Number(wal)).toBeGreaterThan(0);
        expect(statement).toMatch(/^\d+ \/ [\d.]+ \/ \d+$/);
      }
    }
    expect(out).toMatch(/PostgreSQL with its durable defaults \(fsync on, synchronous_commit on/);
    expect(out).toMatch(/^checks: no failed answer/m);
  }, 180_000);
});
