// Issue 14 item 9: a database damaged in the middle of a table must not run as healthy. `serve`
// checks the file before it listens and refuses a damaged one in one line (exit 1); a check that
// outlasts its wait reports later through /healthz; background work that keeps failing degrades
// /healthz (503, with the reason) instead of only logging every 15 s.
import { afterAll, afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { openGateway } from "../../src/server/bootstrap.ts";
import { buildApp } from "../../src/server/app.ts";
import { FAILURES_BEFORE_DEGRADED } from "../../src/server/background-health.ts";
import { checkDatabaseAtStart } from "../../src/server/start-check.ts";
import { startWorker } from "../../src/server/worker.ts";
import { harness, type Harness, SECRET, tempDir } from "../helpers.ts";

const dir = tempDir("xpay-damage-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open: Harness[] = [];
afterEach(() => open.splice(0).forEach((h) => h.close()));

/** A real database with 20 000 orders, then one leaf page of `orders` in the middle overwritten. */
async function damagedDb(name: string): Promise<string> {
  const path = join(dir, name);
  const gw = openGateway({ db: path });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: 1 });
  const db = (gw.store as unknown as { db: Database }).db;
  const insert = db.query(
    `INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, status, created_at, expire_time)
     VALUES ($t, 1001, $o, 'native', 'alipay', 'VIP membership', 1000, 1000, 1, 1, 9999999999)`,
  );
  db.transaction(() => {
    for (let i = 0; i < 20_000; i++) insert.run({ t: String(20260101000000000000n + BigInt(i)), o: `M${i}` });
  })();
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const pages = (db.query("SELECT pageno FROM dbstat WHERE name = 'orders' AND pagetype = 'leaf' ORDER BY pageno").all() as { pageno: number }[]).map((r) => r.pageno);
  const pageSize = (db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
  gw.store.close();
  const victim = pages[Math.floor(pages.length / 2)]!;
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (victim - 1) * pageSize);
  closeSync(fd);
  return path;
}

async function serve(db: string) {
  const p = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", db, "serve", "--port", "0"], { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  const code = await Promise.race([p.exited, Bun.sleep(15_000).then(() => (p.kill("SIGKILL"), "still running"))]);
  return { code, err: (await new Response(p.stderr).text()).trim() };
}

test("serve refuses a database with a damaged page in the middle of a table: one line, exit 1", async () => {
  const path = await damagedDb("damaged.db");
  const r = await serve(path);
  expect(r.code).toBe(1);
  expect(r.err.split("\n")).toHaveLength(1);
  expect(r.err).toStartWith(`error: database ${path} is damaged (integrity check: `);
  expect(r.err).toContain("restore the last backup");
  expect(r.err).not.toContain("    at ");
}, 30_000);

test("a check that outlasts its wait lets serve start, then degrades /healthz when it finds damage", async () => {
  const path = await damagedDb("slow-check.db");
  const gw = openGateway({ db: path });
  const app = buildApp(gw);
  try {
    const running = await checkDatabaseAtStart(gw, 0); // no wait: the answer comes later
    expect(running).not.toBeNull();
    let res = await app.handle(new Request("http://localhost/healthz"));
    for (let i = 0; i < 200 && res.status === 200; i++) {
      await Bun.sleep(25);
      res = await app.handle(new Request("http://localhost/healthz"));
    }
    const body = (await res.json()) as { status: string; reason: string };
    expect(res.status).toBe(503);
    expect(body.status).toBe("degraded");
    expect(body.reason).toContain("database check: database file is damaged");
    await running!.stop();
  } finally {
    gw.store.close();
  }
}, 30_000);

test("a sound database passes the check", async () => {
  const h = harness();
  open.push(h);
  expect(await checkDatabaseAtStart(h.gw)).toBeNull();
});

test("/healthz degrades after repeated expiry-sweep failures, with the reason, and recovers", async () => {
  const h = harness();
  open.push(h);
  const sweep = h.gw.store.expireOrders;
  // Each failing sweep waits here until the test lets it fail: the worker's timer must not fail it
  // again between two reads of /healthz (under load it did, and the count read was one too many).
  let failing = true;
  const gate: { held: PromiseWithResolvers<void> | null } = { held: null };
  h.gw.store.expireOrders = async (now) => {
    if (!failing) return sweep(now);
    const held = (gate.held = Promise.withResolvers<void>());
    await held.promise;
    throw new Error("database disk image is malformed");
  };
  const worker = startWorker(h.gw, { pollMs: 10, sweepMs: 0 });
  const health = async () => {
    const res = await h.app.handle(new Request("http://localhost/healthz"));
    return { status: res.status, body: (await res.json()) as any };
  };
  // The failures so far, as an answer shows them (its `failing`, healthy or not).
  const failures = (body: any) => Number(/^failed (\d+) time\(s\) in a row/.exec(body.failing?.["expiry sweep"] ?? "")?.[1] ?? 0);
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 500 && !ok(); i++) await Bun.sleep(5);
    expect(ok()).toBe(true);
  };
  try {
    let r = await health();
    for (let n = 1; n <= FAILURES_BEFORE_DEGRADED; n++) {
      await until(() => gate.held !== null);
      const sweepNow = gate.held!;
      gate.held = null;
      sweepNow.resolve(); // this sweep fails now; the next one waits
      await until(() => gate.held !== null); // the next pass waits: the failure before it is recorded
      r = await health();
      expect(failures(r.body)).toBe(n);
      // Healthy below the threshold, degraded at it and not before.
      expect(r.status).toBe(n < FAILURES_BEFORE_DEGRADED ? 200 : 503);
    }
    expect(r.body.status).toBe("degraded");
    expect(r.body.reason).toContain(`expiry sweep: failed ${FAILURES_BEFORE_DEGRADED} time(s) in a row`);
    expect(r.body.reason).toContain("database disk image is malformed");
    expect(r.body.workers.notifier).toBe("alive"); // the loop runs; it is its work that fails

    failing = false;
    gate.held?.resolve(); // the sweep waiting now fails once more; the next one succeeds
    for (let i = 0; i < 200 && r.status !== 200; i++) (await Bun.sleep(10), (r = await health()));
    expect(r.status).toBe(200);
    expect(r.body.failing).toBeUndefined();
  } finally {
    failing = false;
    gate.held?.resolve();
    await worker.stop();
  }
});
