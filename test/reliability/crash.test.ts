// Crash: a real `xpay serve` child process under concurrent create + pay load (phone amount
// reports over HTTP and `xpay simulate-pay` from other processes), killed with SIGKILL mid-way,
// restarted on the same database file. Then the rows and a local receiver are checked.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openGateway } from "../../src/server/bootstrap.ts";
import { nativeCreate, PUBLIC_TRADE_NO, SECRET, signed, tempDir } from "../helpers.ts";

const ROOT = join(import.meta.dir, "../..");
const BUN = process.execPath;
const dir = tempDir("xpay-crash-");
const dbPath = join(dir, "xpay.db");
const children: Bun.Subprocess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && !c.killed) c.kill(9);
  rmSync(dir, { recursive: true, force: true });
});

function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const p = s.port!;
  s.stop(true);
  return p;
}

async function startServe(port: number): Promise<Bun.Subprocess<"ignore", "pipe", "pipe">> {
  const child = Bun.spawn([BUN, "src/cli/main.ts", "--db", dbPath, "serve", "--port", String(port), "--log-format", "json"], { cwd: ROOT, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  children.push(child);
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status < 500) return child;
    } catch {}
    await Bun.sleep(25);
  }
  throw new Error("server did not start");
}

const cli = (...args: string[]) => Bun.spawn([BUN, "src/cli/main.ts", "--db", dbPath, ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });

test("kill -9 under load, restart: nothing acknowledged is lost, nothing is paid twice", async () => {
  const t0 = performance.now();
  // Seed: a merchant, one account, a wide offset so 10 equal amounts can be pending at once.
  {
    const gw = openGateway({ db: dbPath });
    await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
    await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: "Alipay A", qrcode: "https://qr.alipay.com/fkx0001", now: gw.clock.now() });
    await gw.store.setSetting("max_offset", "1000");
    gw.store.close();
  }

  // The merchant's notify endpoint: records every delivery per trade_no and acknowledges it.
  const received = new Map<string, number>();
  const receiver = Bun.serve({
    port: 0, hostname: "127.0.0.1",
    async fetch(req) {
      const p = new URLSearchParams(await req.text());
      const t = p.get("trade_no") ?? new URL(req.url).searchParams.get("trade_no") ?? "?";
      received.set(t, (received.get(t) ?? 0) + 1);
      return new Response("success");
    },
  });
  const notifyUrl = `http://127.0.0.1:${receiver.port}/n`;

  let port = freePort();
  let server = await startServe(port);
  let base = `http://127.0.0.1:${port}`;

  const created = new Map<string, number>(); // trade_no -> trade_amount (cents), success responses only
  const paidAcks = new Set<string>(); // a report answered "matched" or simulate-pay exited 0
  let stop = false;
  let seq = 0;
  let errors = 0;

  const postJson = (path: string, body: Record<string, string>) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);

  async function payByReport(tradeNo: string, cents: number) {
    const r = await postJson("/api/report/1001/pc", signed({ timestamp: Math.floor(Date.now() / 1000), amount: cents, pay_type: "alipay", channel_code: "alipay_qr", remark: tradeNo }));
    if (r.code === 200 && r.data.outcome === "matched" && r.data.trade_no === tradeNo) paidAcks.add(tradeNo);
  }

  async function loop(w: number) {
    while (!stop) {
      try {
        const i = seq++;
        const c = await postJson("/xpay/order/create", nativeCreate({ money: `1${i % 10}.00`, out_trade_no: `K${w}-${i}`, notify_url: notifyUrl }));
        if (c.code !== 200) continue;
        const cents = Math.round(Number(c.data.trade_amount) * 100);
        created.set(c.data.trade_no, cents);
        if (i % 4 !== 3) await payByReport(c.data.trade_no, cents); // every 4th order stays pending
      } catch {
        errors++;
        await Bun.sleep(5);
      }
    }
  }

  async function cliPayer() {
    while (!stop) {
      const pending = [...created.keys()].filter((t) => !paidAcks.has(t));
      const t = pending[pending.length - 1];
      if (!t) {
        await Bun.sleep(10);
        continue;
      }
      const p = cli("simulate-pay", t, "--json");
      if ((await p.exited) === 0) paidAcks.add(t);
    }
  }

  const workers = [...Array.from({ length: 16 }, (_, w) => loop(w)), cliPayer(), cliPayer()];
  // Kill in the middle of the load: once enough orders are through, without warning.
  while (created.size < 250 && performance.now() - t0 < 8000) await Bun.sleep(10);
  server.kill(9);
  await server.exited;
  const killedAt = Date.now();
  const atKill = { created: created.size, paid: paidAcks.size };
  await Bun.sleep(50);
  stop = true;
  await Promise.all(workers);

  // Right after the crash, before any restart: the file alone holds everything acknowledged.
  const db = new Database(dbPath, { readonly: true });
  const status = (t: string) => (db.query(`SELECT status FROM orders WHERE ${PUBLIC_TRADE_NO} = ?`).get(t) as { status: number } | null)?.status;
  for (const t of created.keys()) expect(status(t)).toBeDefined();
  for (const t of paidAcks) expect(status(t)).toBe(2);
  const inFlight = db.query(`SELECT ${PUBLIC_TRADE_NO} AS trade_no FROM notifications WHERE status = 'pending' AND claimed_until > ?`).all(killedAt) as { trade_no: string }[];
  db.close();

  // Restart on the same file. Rows the dead process had claimed wait out their lease (90 s);
  // the operator's `notify replay` releases them at once, which is what we do here.
  port = freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServe(port);
  await Promise.all(inFlight.map((r) => cli("notify", "replay", r.trade_no).exited));
  // Traffic resumes: pay the orders left pending.
  const leftPending = [...created].filter(([t]) => !paidAcks.has(t));
  await Promise.all(leftPending.map(([t, cents]) => payByReport(t, cents).catch(() => errors++)));

  // Wait until every paid order's notification was delivered.
  const check = new Database(dbPath, { readonly: true });
  const paidRows = () => check.query(`SELECT ${PUBLIC_TRADE_NO} AS trade_no FROM orders WHERE status = 2`).all() as { trade_no: string }[];
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && paidRows().some((r) => !received.has(r.trade_no))) await Bun.sleep(50);

  const paid = paidRows().map((r) => r.trade_no);
  for (const t of paid) expect(received.get(t) ?? 0).toBeGreaterThanOrEqual(1);
  for (const t of received.keys()) expect(status2(check, t)).toBe(true); // no notification for an unpaid order
  // Paid once: one matched settlement per order, one outbox row, paid_at set once.
  expect(check.query("SELECT trade_no FROM reports WHERE outcome = 'matched' AND trade_no IS NOT NULL GROUP BY trade_no HAVING COUNT(*) > 1").all()).toEqual([]);
  expect(check.query("SELECT trade_no FROM notifications GROUP BY trade_no HAVING COUNT(*) > 1").all()).toEqual([]);
  expect(check.query("SELECT COUNT(*) AS n FROM orders WHERE status = 2 AND paid_at IS NULL").get()).toEqual({ n: 0 });
  expect((check.query("SELECT COUNT(*) AS n FROM notifications n JOIN orders o USING (trade_no) WHERE o.status != 2").get() as { n: number }).n).toBe(0);
  for (const t of created.keys()) expect(status2(check, t)).toBe(true); // everything got paid after the restart
  const totals = check.query("SELECT (SELECT COUNT(*) FROM orders) AS orders, (SELECT COUNT(*) FROM orders WHERE status = 2) AS paid, (SELECT COUNT(*) FROM notification_attempts) AS attempts, (SELECT COUNT(*) FROM notifications WHERE status = 'delivered') AS delivered").get() as Record<string, number>;
  check.close();

  server.kill("SIGTERM");
  await server.exited;
  receiver.stop(true);
  const duplicates = [...received.values()].filter((n) => n > 1).length;
  console.log(
    `[reliability] crash: at kill ${atKill.created} orders acknowledged, ${atKill.paid} payments acknowledged; ` +
      `${inFlight.length} notifications in flight at the kill (replayed); after restart ${totals.orders} orders, ${totals.paid} paid, ` +
      `${totals.delivered} delivered in ${totals.attempts} attempts, ${duplicates} delivered more than once; ${errors} client errors around the kill; ` +
      `${Math.round(performance.now() - t0)} ms`,
  );
}, 45_000);

function status2(db: Database, t: string): boolean {
  return (db.query(`SELECT status FROM orders WHERE ${PUBLIC_TRADE_NO} = ?`).get(t) as { status: number } | null)?.status === 2;
}
