// /metrics (issue 18): Prometheus text that a strict parser reads, counters that move when orders
// are created and paid through the real HTTP routes of a running server, access by bearer token or
// from loopback only, and labels that never carry an order number or a secret.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { sweepExpired } from "../../src/core/expiry.ts";
import { noMetrics } from "../../src/core/metrics.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { routeFamily } from "../../src/server/metrics/labels.ts";
import { startServer } from "../../src/server/serve.ts";
import { harness, type Harness, nativeCreate, postJson, SECRET, seed, signed, tempDir } from "../helpers.ts";
import { startReceiver } from "../notify/receiver.ts";
import { createOrder } from "../report/util.ts";
import { type Family, parsePromText, valueOf } from "./prom-text.ts";

const TOKEN = "t0ken-for-prometheus-0123456789";
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

function withHarness(o: { trustProxy?: number } = {}): Harness {
  const h = harness();
  closers.push(() => h.close());
  if (o.trustProxy) (h.gw as { proxyHops: number }).proxyHops = o.trustProxy;
  return h;
}

const scrapeApp = (h: Harness, headers: Record<string, string> = {}) => h.app.handle(new Request("http://localhost/metrics", { headers }));

async function parsed(res: Response): Promise<Map<string, Family>> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
  return parsePromText(await res.text());
}

describe("through a running server", () => {
  test("counters move when an order is created and paid; loopback needs no token; notifications and HTTP durations are counted", async () => {
    const dir = tempDir();
    const gw = openGateway({ db: join(dir, "m.db") });
    await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
    await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: "Alipay A", qrcode: "https://qr.alipay.com/x", now: gw.clock.now() });
    const receiver = startReceiver(["success"]);
    const server = await startServer(gw, { port: 0, host: "127.0.0.1" });
    closers.push(() => rmSync(dir, { recursive: true, force: true }), () => gw.store.close(), () => receiver.stop(), () => server.stop());
    const scrape = async () => parsed(await fetch(`${server.url}/metrics`));

    const before = await scrape();
    expect(valueOf(before, "xpay_orders_created_total", { family: "native", pay_type: "alipay" })).toBe(0);
    expect(valueOf(before, "xpay_db_writable")).toBe(1);

    const create = await fetch(`${server.url}/xpay/order/create`, { method: "POST", body: new URLSearchParams(nativeCreate({ money: "12.50", notify_url: receiver.url })) });
    const order = ((await create.json()) as { data: { trade_no: string; trade_amount: string } }).data;
    const cents = Math.round(Number(order.trade_amount) * 100);
    const afterCreate = await scrape();
    expect(valueOf(afterCreate, "xpay_orders_created_total", { family: "native", pay_type: "alipay" })).toBe(1);
    expect(valueOf(afterCreate, "xpay_http_request_duration_seconds_count", { route: "native" })).toBe(1);
    expect(valueOf(afterCreate, "xpay_store_write_seconds_count")).toBeGreaterThanOrEqual(1);

    const report = signed({ amount: cents, pay_type: "alipay", channel_code: "alipay_qr", timestamp: gw.clock.now() });
    const paid = await fetch(`${server.url}/api/report/1001/pc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(report) });
    expect(((await paid.json()) as { data: { outcome: string } }).data.outcome).toBe("matched");
    await receiver.waitFor(1);
    for (let i = 0; i < 50 && valueOf(await scrape(), "xpay_notification_attempts_total", { result: "delivered" }) === 0; i++) await Bun.sleep(20);

    const after = await scrape();
    expect(valueOf(after, "xpay_orders_paid_total", { family: "native", pay_type: "alipay" })).toBe(1);
    expect(valueOf(after, "xpay_paid_amount_cents_total", { pay_type: "alipay" })).toBe(cents);
    expect(valueOf(after, "xpay_reports_total", { kind: "amount", outcome: "matched" })).toBe(1);
    expect(valueOf(after, "xpay_notification_attempts_total", { result: "delivered" })).toBe(1);
    expect(valueOf(after, "xpay_http_request_duration_seconds_count", { route: "report" })).toBe(1);
    expect(valueOf(after, "xpay_outbox_pending")).toBe(0);

    // A local proxy relaying someone else: refused without a token or --trust-proxy.
    const relayed = await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(relayed.status).toBe(403);
    expect(await relayed.text()).toContain("came through a proxy");
  });
});

describe("access", () => {
  test("no token: a request with no loopback peer is refused", async () => {
    const h = withHarness();
    const res = await scrapeApp(h); // app.handle: no socket, no address
    expect(res.status).toBe(403);
    expect(await res.text()).toBe("/metrics answers loopback clients only; set metrics_token to scrape it from another machine\n");
  });

  test("behind trusted proxies the client's address decides", async () => {
    const h = withHarness({ trustProxy: 1 });
    expect((await scrapeApp(h, { "x-forwarded-for": "203.0.113.9" })).status).toBe(403);
    expect((await scrapeApp(h, { "x-forwarded-for": "127.0.0.1, 203.0.113.9" })).status).toBe(403); // the left entry is the client's word
    // No loopback socket here (app.handle): a forwarded 127.0.0.1 alone opens nothing (issue 17
    // review); the loopback socket with a loopback client is test/security/console-metrics.test.ts.
    expect((await scrapeApp(h, { "x-forwarded-for": "127.0.0.1" })).status).toBe(403);
    expect((await scrapeApp(h, { "x-forwarded-for": "::1" })).status).toBe(403);
  });

  test("with metrics_token: a bearer token from anywhere, compared whole", async () => {
    const h = withHarness();
    await h.gw.store.setSetting("metrics_token", TOKEN);
    h.gw.forgetSettings();
    const none = await scrapeApp(h);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="xpay metrics"');
    expect((await scrapeApp(h, { authorization: `Bearer ${TOKEN.slice(0, -1)}` })).status).toBe(401);
    expect((await scrapeApp(h, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await scrapeApp(h, { authorization: `Basic ${TOKEN}` })).status).toBe(401);
    const ok = await scrapeApp(h, { authorization: `Bearer ${TOKEN}` });
    expect(valueOf(await parsed(ok), "xpay_db_writable")).toBe(1);
  });

  test("metrics_enabled 0: 404 at once; a server started with 0 counts nothing", async () => {
    const h = withHarness();
    await h.gw.store.setSetting("metrics_token", TOKEN);
    await h.gw.store.setSetting("metrics_enabled", "0");
    h.gw.forgetSettings();
    expect((await scrapeApp(h, { authorization: `Bearer ${TOKEN}` })).status).toBe(404);

    const dir = tempDir();
    const gw = openGateway({ db: join(dir, "off.db") });
    await gw.store.setSetting("metrics_enabled", "0");
    const server = await startServer(gw, { port: 0, host: "127.0.0.1" });
    closers.push(() => rmSync(dir, { recursive: true, force: true }), () => gw.store.close(), () => server.stop());
    expect(gw.metrics).toBe(noMetrics);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });
});

describe("what the registry holds", () => {
  test("per gateway: two gateways in one process count apart", async () => {
    const a = withHarness();
    const b = withHarness();
    for (const h of [a, b]) {
      await seed(h);
      await h.gw.store.setSetting("metrics_token", TOKEN);
    }
    await createOrder(a);
    await createOrder(a);
    await createOrder(b);
    const read = async (h: Harness) => valueOf(await parsed(await scrapeApp(h, { authorization: `Bearer ${TOKEN}` })), "xpay_orders_created_total", { family: "native" });
    expect([await read(a), await read(b)]).toEqual([2, 1]);
  });

  test("failed creations, expiry, refusals and unknown pay types are counted, with labels from fixed lists only", async () => {
    const h = withHarness();
    await seed(h, { max: 100_00 });
    await h.gw.store.setSetting("metrics_token", TOKEN);
    const orders = [await createOrder(h), await createOrder(h, { money: "20.00" })];
    const failed = await postJson(h, "/xpay/order/create", nativeCreate({ money: "500.00" })); // above the account's maximum
    expect(failed.body.code).toBe(422);
    const odd = await postJson(h, "/xpay/order/create", nativeCreate({ pay_type: "zz_custom_type" }));
    expect(odd.body.code).toBe(422);
    const forged = await postJson(h, "/xpay/order/create", { ...nativeCreate(), sign: "0".repeat(32) });
    expect(forged.body.code).toBe(401);
    await postJson(h, "/api/report/1001/pc", { ...signed({ amount: 1, timestamp: h.clock.now() }), sign: "f".repeat(32) }); // refused report
    h.clock.advance(3600);
    expect(await sweepExpired(h.gw)).toBe(2);

    const text = await (await scrapeApp(h, { authorization: `Bearer ${TOKEN}` })).text();
    const m = parsePromText(text);
    expect(valueOf(m, "xpay_orders_created_total", { family: "native", pay_type: "alipay" })).toBe(2);
    expect(valueOf(m, "xpay_orders_failed_total", { family: "native", pay_type: "alipay" })).toBe(1);
    expect(valueOf(m, "xpay_orders_failed_total", { family: "native", pay_type: "other" })).toBe(1);
    expect(valueOf(m, "xpay_orders_expired_total", { family: "native", pay_type: "alipay" })).toBe(2);
    expect(valueOf(m, "xpay_reports_total", { kind: "amount", outcome: "rejected" })).toBe(1);

    const allowed: Record<string, string[]> = {
      family: ["native", "epay-v1", "epay-v2", "hashpay", "vmq", "other"],
      pay_type: ["alipay", "wxpay", "qqpay", "none", "other"],
      route: ["native", "epay-v1", "epay-v2", "hashpay", "cashier", "report", "vmq", "admin", "other"],
      result: ["delivered", "retry", "failed"],
      kind: ["message", "amount", "heart", "third-account", "third-heart", "operator", "vmq-push", "vmq-heart", "other"],
      outcome: ["matched", "unmatched", "duplicate", "rejected", "accepted", "other"],
    };
    const secrets = [SECRET, TOKEN, ...orders.flatMap((o) => [o.trade_no, o.out_trade_no]), "zz_custom_type"];
    for (const f of m.values()) {
      for (const s of f.samples) {
        for (const [k, v] of Object.entries(s.labels)) {
          if (k === "le") continue;
          expect({ series: s.name, label: k, ok: allowed[k]?.includes(v) ?? false }).toEqual({ series: s.name, label: k, ok: true });
        }
      }
    }
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  test("route families: never the path", () => {
    expect(["/xpay/order/create", "/xpay/epay/submit.php?pid=1", "/xpay/epayn/api/pay/create", "/xpay/hupijiao/payment/do.html", "/api/report/1001/pc",
      "/api/order/info", "/pay/20261123123456123456", "/qrcode?text=x", "/appPush?t=1", "/getOrder", "/admin/orders", "/healthz", "/metrics", "/createOrderX"].map(routeFamily))
      .toEqual(["native", "epay-v1", "epay-v2", "hashpay", "report", "cashier", "cashier", "cashier", "vmq", "vmq", "admin", "other", "other", "other"]);
  });
});
