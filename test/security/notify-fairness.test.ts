// Issue 14 item 5: one merchant whose notify_url hangs must not delay anyone else's notifications.
// Real 127.0.0.1 listeners that accept and never answer, the real worker with its default
// concurrency and caps, and a second merchant's real receiver that must hear of its payment at once.
import { Database } from "bun:sqlite";
import type { Socket } from "bun";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { NOTIFY_PER_MERCHANT, NOTIFY_PER_TARGET } from "../../src/core/notify/fairness.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { startWorker, type Worker } from "../../src/server/worker.ts";
import { BASE, harness, type Harness, postJson, seed, signed } from "../helpers.ts";
import { type Receiver, startReceiver } from "../notify/receiver.ts";
import { report } from "../report/util.ts";

const secretOf = (pid: number) => `secret-of-merchant-${pid}-0123456789abcdef`;

/** A merchant endpoint that accepts the connection and never answers a byte. */
function hangingListener() {
  const open = new Set<Socket<undefined>>();
  let accepted = 0;
  const l = Bun.listen<undefined>({ hostname: "127.0.0.1", port: 0, socket: { open: (s) => void (open.add(s), accepted++), data() {}, close: (s) => void open.delete(s) } });
  return {
    url: `http://127.0.0.1:${l.port}/notify`,
    open: () => open.size,
    accepted: () => accepted,
    stop() {
      for (const s of open) s.end(); // the attempts in flight fail now instead of at their timeout
      l.stop(true);
    },
  };
}

let h: Harness;
let worker: Worker | null = null;
const cleanups: (() => void)[] = [];
beforeEach(async () => {
  h = harness();
  await seed(h); // merchant 1001 and its own alipay account
  await h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "alipay_shared", name: "Shared", qrcode: "https://qr.alipay.com/s", now: h.clock.now() }); // every merchant's
  // Merchant B (1007) reports its payment with its AppSecret: on its own account (taken first, sort -1).
  await h.gw.store.addChannel({ pid: 1007, payType: "alipay", code: "alipay_b", name: "B's own", qrcode: "https://qr.alipay.com/b", sort: -1, now: h.clock.now() });
  for (const pid of [1002, 1003, 1004, 1005, 1006, 1007]) await h.gw.store.addMerchant({ pid, name: `Shop ${pid}`, secret: secretOf(pid), now: h.clock.now() });
});
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  await worker?.stop();
  worker = null;
  h.close();
});

let amountCents = 1000;
async function paidOrder(pid: number, notifyUrl: string): Promise<string> {
  const money = ((amountCents += 100) / 100).toFixed(2); // a fresh amount: one slot each
  const params = { pid, pay_type: "alipay", name: "VIP", money, out_trade_no: `F${pid}-${amountCents}`, notify_url: notifyUrl };
  const { body } = await postJson(h, "/xpay/order/create", pid === 1001 ? signed(params) : signed(params, secretOf(pid)));
  expect(body.code).toBe(200);
  expect((await settleOperatorPayment(h.gw, body.data.trade_no))?.outcome).toBe("matched");
  return body.data.trade_no;
}

/** Merchant B (1007) creates an order and its phone reports the payment; ms until B's endpoint hears of it. */
async function merchantBPaid(rx: Receiver): Promise<number> {
  const params = { pid: 1007, pay_type: "alipay", name: "VIP", money: "888.00", out_trade_no: "B-1", notify_url: rx.url };
  const { body } = await postJson(h, "/xpay/order/create", signed(params, secretOf(1007)));
  const cents = Math.round(Number(body.data.trade_amount) * 100);
  const t0 = performance.now();
  const r = await report(h, "/1007/pc", { amount: cents, pay_type: "alipay", channel_code: "alipay_b" }, { secret: secretOf(1007) });
  expect(r.body.data.outcome).toBe("matched");
  await rx.waitFor(1, 2000);
  return performance.now() - t0;
}

const rawDb = () => new Database(h.dbPath, { readonly: true });

/**
 * Waits (5 s at most) until `count` reaches the cap, then a little longer: the count is read once
 * the claims had their time, which a fixed sleep did not promise a loaded machine.
 */
async function settledAt(count: () => number, cap: number): Promise<number> {
  const end = Date.now() + 5000;
  while (count() < cap && Date.now() < end) await Bun.sleep(10);
  await Bun.sleep(100); // a claim past the cap would show by now
  return count();
}

describe("one merchant's hanging endpoint never delays another merchant's notification", () => {
  test("100 hanging notifications of merchant A (10 endpoints): B's arrives in under 2 s; A holds at most its share", async () => {
    const hangs = Array.from({ length: 10 }, hangingListener);
    cleanups.push(() => hangs.forEach((x) => x.stop()));
    const rx = startReceiver(["success"]);
    cleanups.push(() => rx.stop());
    worker = startWorker(h.gw, { maxTimeoutMs: 10_000 }); // the default concurrency and caps

    for (let i = 0; i < 100; i++) await paidOrder(1001, hangs[i % 10]!.url);
    const aConnections = await settledAt(() => hangs.reduce((n, x) => n + x.open(), 0), NOTIFY_PER_MERCHANT); // A's attempts connected and hanging
    const ms = await merchantBPaid(rx);
    console.log(`merchant B notified ${ms.toFixed(0)} ms after its payment, A had ${aConnections} attempts hanging`);
    expect(ms).toBeLessThan(2000);
    expect(aConnections).toBe(NOTIFY_PER_MERCHANT);

    // A's other 96 rows were not claimed: still due, unleased, never attempted.
    const db = rawDb();
    const a = db.query("SELECT n.attempts, n.claimed_until > 0 AS leased FROM notifications n JOIN orders o USING (trade_no) WHERE o.pid = 1001").all() as { attempts: number; leased: number }[];
    db.close();
    expect(a.filter((r) => r.leased).length).toBe(NOTIFY_PER_MERCHANT);
    expect(a.filter((r) => r.attempts > 0).length).toBe(0);
  }, 20_000);

  test("one hanging host:port shared by five merchants gets at most notify_per_target connections", async () => {
    const hang = hangingListener();
    cleanups.push(() => hang.stop());
    const rx = startReceiver(["success"]);
    cleanups.push(() => rx.stop());
    worker = startWorker(h.gw, { maxTimeoutMs: 10_000 });
    for (const pid of [1002, 1003, 1004, 1005, 1006]) for (let i = 0; i < 10; i++) await paidOrder(pid, hang.url);
    expect(await settledAt(() => hang.accepted(), NOTIFY_PER_TARGET)).toBe(NOTIFY_PER_TARGET);
    expect(await merchantBPaid(rx)).toBeLessThan(2000);
  }, 20_000);
});

describe("caps keep the outbox's guarantees", () => {
  test("rows over the cap wait unattempted and go out as shares free; each is sent exactly once", async () => {
    const gate: (() => void)[] = [];
    let opened = false;
    let seen = 0;
    const slow = Bun.serve({
      hostname: "127.0.0.1", port: 0,
      fetch: async () => {
        seen++;
        if (!opened) await new Promise<void>((r) => gate.push(r));
        return new Response("success");
      },
    });
    cleanups.push(() => slow.stop(true));
    worker = startWorker(h.gw, { pollMs: 50, caps: { perMerchant: 4, perTarget: 4 } });
    const trades: string[] = [];
    for (let i = 0; i < 10; i++) trades.push(await paidOrder(1001, `http://127.0.0.1:${slow.port}/n`));
    expect(await settledAt(() => seen, 4)).toBe(4);
    const db = rawDb();
    const waiting = db.query("SELECT COUNT(*) AS c FROM notifications WHERE claimed_until = 0 AND attempts = 0 AND status = 'pending'").get() as { c: number };
    db.close();
    expect(waiting.c).toBe(10 - 4);
    opened = true;
    for (const g of gate.splice(0)) g();
    const statuses = async () => (await Promise.all(trades.map((t) => h.gw.store.getNotification(t)))).map((n) => [n?.status, n?.attempts]);
    for (let i = 0; i < 100 && (await statuses()).some(([s]) => s !== "delivered"); i++) await Bun.sleep(20);
    expect(await statuses()).toEqual(trades.map(() => ["delivered", 1]));
    expect(seen).toBe(10);
  }, 20_000);

  test("a row another process leases between the fair read and the lease is not claimed twice", async () => {
    const trades = [await paidOrder(1001, "http://127.0.0.1:9/a"), await paidOrder(1002, "http://127.0.0.1:9/b")];
    const other = new Database(h.dbPath); // another server on the same file
    const now = h.clock.nowMs();
    const admit = (r: { id: number }) => (other.query("UPDATE notifications SET claimed_until = ? WHERE id = ?").run(now + 90_000, r.id), true);
    const claimed = await h.gw.store.claimDueNotifications(now, 10, 90_000, { perMerchant: 4, admit: (r) => (r.url.endsWith("/a") ? admit(r) : true) });
    other.close();
    expect(claimed.map((n) => n.tradeNo)).toEqual([trades[1]!]);
    const skipped = await h.gw.store.getNotification(trades[0]!);
    expect([skipped?.status, skipped?.attempts]).toEqual(["pending", 0]);
  });

  test("two workers on one database with caps: every notification is sent once", async () => {
    const rx = startReceiver(["success"]);
    cleanups.push(() => rx.stop());
    const other = openGateway({ db: h.dbPath, baseUrl: BASE, clock: h.clock });
    const second = startWorker(other, { pollMs: 20 });
    worker = startWorker(h.gw, { pollMs: 20 });
    try {
      for (const pid of [1001, 1002, 1003]) for (let i = 0; i < 10; i++) await paidOrder(pid, rx.url);
      await rx.waitFor(30);
      await Bun.sleep(100);
    } finally {
      await second.stop();
      other.store.close();
    }
    const tradeNos = rx.received.map((r) => r.params.trade_no);
    expect(tradeNos.length).toBe(30);
    expect(new Set(tradeNos).size).toBe(30);
  }, 20_000);
});
