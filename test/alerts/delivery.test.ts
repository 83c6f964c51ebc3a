// The alert outbox: a queued alert survives closing and reopening the database and is delivered
// after the restart; a failed attempt is recorded and retried on the schedule; a channel that
// refuses connections or hangs delays neither another channel nor the merchant notifications.
import { afterEach, expect, test } from "bun:test";
import { ALERT_RETRY_S, deliverAlerts } from "../../src/core/alerts/deliver.ts";
import { evaluateAlerts } from "../../src/core/alerts/evaluate.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { startAlerts } from "../../src/server/alert-loop.ts";
import { startWorker } from "../../src/server/worker.ts";
import { testMessage } from "../../src/core/alerts/render.ts";
import { BASE } from "../helpers.ts";
import { startReceiver } from "../notify/receiver.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { addChannel, alertHarness, sink } from "./util.ts";

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

/** A port nothing listens on (yet). */
function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

test("a pending alert survives a restart: the failed attempt is kept, the retry after reopening delivers it", async () => {
  const x = await alertHarness();
  cleanup.push(() => x.s.stop());
  const port = freePort();
  await addChannel(x.h, "later", "webhook", { url: `http://127.0.0.1:${port}/in`, secret: "0123456789abcdef" });
  await evaluateAlerts(x.h.gw);
  await amountReport(x.h, 321);
  await evaluateAlerts(x.h.gw);
  expect(await deliverAlerts(x.h.gw)).toEqual({ attempted: 2, sent: 1 }); // "hook" got it, "later" is down
  const [row] = (await x.h.gw.store.alerts.history({ limit: 5 })).filter((r) => r.channelName === "later");
  expect(row).toMatchObject({ status: "pending", attempts: 1, event: "firing" });
  expect(row!.last!.error).toMatch(/refused|connect/i);
  expect(row!.nextAttemptAt).toBe(x.h.clock.nowMs() + ALERT_RETRY_S[0] * 1000);
  x.h.gw.store.close();

  const up = Bun.serve({ hostname: "127.0.0.1", port, fetch: async (req) => (got.push(await req.json()), new Response("ok")) });
  const got: any[] = [];
  cleanup.push(() => up.stop(true));
  const clock = new ManualClock(x.h.clock.nowMs() + 3_600_000); // an hour later
  const gw = openGateway({ db: x.h.dbPath, baseUrl: BASE, clock });
  cleanup.push(() => gw.store.close());
  expect(await deliverAlerts(gw)).toEqual({ attempted: 1, sent: 1 });
  expect(got).toMatchObject([{ event: "firing", condition: "unmatched_report" }]);
  const [done] = (await gw.store.alerts.history({ limit: 5 })).filter((r) => r.channelName === "later");
  expect(done).toMatchObject({ status: "sent", attempts: 2 });
  expect(await deliverAlerts(gw)).toEqual({ attempted: 0, sent: 0 });
});

test("a message is retried on the schedule and marked failed after the last attempt", async () => {
  const x = await alertHarness();
  cleanup.push(x.close);
  const dead = freePort();
  await x.h.gw.store.alerts.removeChannel("hook", x.h.clock.nowMs());
  await addChannel(x.h, "dead", "webhook", { url: `http://127.0.0.1:${dead}/`, secret: "0123456789abcdef" });
  await evaluateAlerts(x.h.gw);
  await amountReport(x.h, 321);
  await evaluateAlerts(x.h.gw);
  await deliverAlerts(x.h.gw);
  for (const d of ALERT_RETRY_S) {
    x.h.clock.advance(d - 1);
    expect((await deliverAlerts(x.h.gw)).attempted).toBe(0); // not due yet
    x.h.clock.advance(1);
    expect((await deliverAlerts(x.h.gw)).attempted).toBe(1);
  }
  expect((await x.h.gw.store.alerts.history({ limit: 1 }))[0]).toMatchObject({ status: "failed", attempts: ALERT_RETRY_S.length + 1 });
});

test("a channel that is down and one that hangs (with a backlog) delay neither another channel nor merchant notifications", async () => {
  const x = await alertHarness();
  const hang = sink([() => new Promise<Response>(() => {})]);
  const merchant = startReceiver(["success"]);
  cleanup.push(x.close, () => hang.stop(), () => merchant.stop());
  await addChannel(x.h, "down", "webhook", { url: `http://127.0.0.1:${freePort()}/`, secret: "0123456789abcdef" });
  const hanging = await addChannel(x.h, "hang", "webhook", { url: hang.url, secret: "0123456789abcdef" });
  // A backlog of 200 older messages of the hanging channel, due before anything else.
  const old = testMessage("hang", { nowMs: x.h.clock.nowMs(), timeZone: "UTC" });
  await x.h.gw.store.alerts.applyPass({ instances: [], messages: Array.from({ length: 200 }, () => ({ message: old, channels: [hanging] })), cursors: null, nowMs: x.h.clock.nowMs() - 60_000 });
  await x.h.gw.store.setSetting("alert_account_offline", "0");
  await evaluateAlerts(x.h.gw); // cursors
  const worker = startWorker(x.h.gw);
  const loop = startAlerts(x.h.gw, { tickMs: 20, evalMs: 50, timeoutMs: 2000 });
  cleanup.push(() => worker.stop(), () => loop.stop());

  // Three alerts, each to three channels; the hanging channel holds its two slots for 2 s each.
  for (const amount of [101, 102, 103]) await amountReport(x.h, amount);
  const t0 = Date.now();
  await x.s.waitFor(3, 3000);
  const alertMs = Date.now() - t0;
  await hang.waitFor(1, 3000);

  // Meanwhile a payment: its notification goes out at once.
  const order = await createOrder(x.h, { notify_url: merchant.url });
  const t1 = Date.now();
  await settleOperatorPayment(x.h.gw, order.trade_no);
  await merchant.waitFor(1, 3000);
  const notifyMs = Date.now() - t1;
  expect(hang.got.length).toBeLessThanOrEqual(2); // at most PER_CHANNEL of its attempts in flight
  expect(alertMs).toBeLessThan(1500);
  expect(notifyMs).toBeLessThan(500);
  expect(x.s.json().map((m) => m.condition)).toEqual(["unmatched_report", "unmatched_report", "unmatched_report"]);
  const down = async () => (await x.h.gw.store.alerts.history({ limit: 20 })).filter((r) => r.channelName === "down");
  for (let i = 0; i < 100 && (await down()).some((r) => r.attempts === 0); i++) await Bun.sleep(20);
  expect((await down()).map((r) => [r.status, r.attempts, /refused|connect/i.test(r.last?.error ?? "")])).toEqual(Array(3).fill(["pending", 1, true]));
  console.log(`alerts through the good channel in ${alertMs} ms, merchant notification in ${notifyMs} ms, with one channel down and one hanging`);
});

test("the alert loop beats 'alerts' into /healthz while it runs and leaves it when stopped; serve starts it", async () => {
  const { backgroundStarters } = await import("../../src/server/serve.ts");
  expect(backgroundStarters.map(String).some((s) => s.includes("startAlerts"))).toBe(true);
  const x = await alertHarness();
  cleanup.push(x.close);
  const health = async () => (await (await x.h.app.handle(new Request("http://localhost/healthz"))).json()) as { status: string; workers: Record<string, string> };
  const loop = startAlerts(x.h.gw, { tickMs: 20 });
  await Bun.sleep(60);
  expect(await health()).toMatchObject({ status: "ok", workers: { alerts: "alive" } });
  await loop.stop();
  expect((await health()).workers.alerts).toBeUndefined();
});
