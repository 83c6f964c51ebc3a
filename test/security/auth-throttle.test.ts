// Failed authentications cost the caller: every family counts refusals per client address and
// answers an address over `auth_fail_limit` at once, in its own shape, without storing anything.
// The address behind a trusted proxy is the entry the proxy appended, never the client's own.
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import { peerIp } from "../../src/protocols/http.ts";
import { THROTTLED } from "../../src/protocols/auth-gate.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { startServer } from "../../src/server/serve.ts";
import { nativeCreate, SECRET, signed, tempDir } from "../helpers.ts";
import { hashParams } from "../hashpay/sdk.ts";

const closers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function setup(limit: number, trustProxy: boolean | number = true) {
  const dir = tempDir();
  const clock = new ManualClock();
  const gw = openGateway({ db: join(dir, "t.db"), clock, trustProxy });
  closers.push(() => {
    gw.store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await gw.store.addMerchant({ pid: 1001, name: "S", secret: SECRET, now: clock.now() });
  await gw.store.addChannel({ pid: 0, payType: "alipay", code: "alipay_qr", name: "A", qrcode: "q", now: clock.now() });
  await gw.store.setSetting("auth_fail_limit", String(limit));
  const app = buildApp(gw);
  const send = async (path: string, body: Record<string, string | number>, ip: string, as: "json" | "form" = "json") => {
    const res = await app.handle(
      new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { "content-type": as === "json" ? "application/json" : "application/x-www-form-urlencoded", "x-forwarded-for": ip },
        body: as === "json" ? JSON.stringify(body) : new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
      }),
    );
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  return { gw, clock, send };
}

test("an address that used up its failed authentications is refused, even when signing correctly; others are not; a minute later it may try again", async () => {
  const { clock, send } = await setup(5);
  for (let i = 0; i < 5; i++) expect((await send("/xpay/order/create", { ...nativeCreate(), money: "0.01" }, "198.51.100.7")).body.code).toBe(401);
  expect((await send("/xpay/order/create", nativeCreate(), "198.51.100.7")).body).toEqual({ code: 429, msg: THROTTLED, data: null });
  expect((await send("/xpay/order/create", nativeCreate(), "198.51.100.8")).body.code).toBe(200);
  clock.advance(13); // one refusal's share of a minute at 5 per minute
  expect((await send("/xpay/order/create", nativeCreate(), "198.51.100.7")).body.code).toBe(200);
});

test("every family answers a throttled address in its own shape; the report API stores nothing of it", async () => {
  const { gw, clock, send } = await setup(3);
  const ip = "203.0.113.50";
  for (let i = 0; i < 3; i++) await send("/xpay/epay/api.php", { act: "query", pid: 1001, key: `guess${i}` }, ip, "form");
  expect((await send("/xpay/epay/api.php", { act: "query", pid: 1001, key: SECRET }, ip, "form")).body).toEqual({ code: -1, msg: THROTTLED });
  expect((await send("/xpay/epay/mapi.php", { pid: 1001 }, ip, "form")).body).toEqual({ code: -1, msg: THROTTLED });
  expect((await send("/xpay/epayn/api/pay/create", { pid: 1001 }, ip, "form")).body).toEqual({ code: -1, msg: THROTTLED });
  expect((await send("/xpay/hashpay", hashParams({ clock } as never), ip)).body).toEqual({ errcode: "429", errmsg: THROTTLED, hash: "" });
  const before = (await gw.store.listReports({ limit: 1000 })).length;
  const report = await send("/api/report/1001/pc", signed({ amount: 100, pay_type: "alipay", channel_code: "alipay_qr", timestamp: clock.now() }), ip);
  expect(report.status).toBe(429);
  expect(report.body).toEqual({ code: 429, message: THROTTLED, data: null });
  expect(report.headers.get("retry-after")).toBe("20");
  expect((await gw.store.listReports({ limit: 1000 })).length).toBe(before);
});

test("api.php key guessing stops after the limit (default 30 per minute)", async () => {
  const { gw, send } = await setup(30);
  await gw.store.setSetting("auth_fail_limit", "30");
  let refused = 0;
  for (let i = 0; i < 40; i++) {
    const r = await send("/xpay/epay/api.php", { act: "query", pid: 1001, key: `k${i}` }, "192.0.2.1", "form");
    if (r.body.msg === THROTTLED) refused++;
  }
  expect(refused).toBe(10);
});

test("behind N trusted proxies the address is the Nth X-Forwarded-For entry from the right; junk falls back to the socket", () => {
  const req = (xff: string) => new Request("http://localhost/", { headers: { "x-forwarded-for": xff } });
  expect(peerIp(req("6.6.6.6, 203.0.113.9"), undefined, 1)).toBe("203.0.113.9");
  expect(peerIp(req("6.6.6.6, 203.0.113.9, 10.0.0.2"), undefined, 2)).toBe("203.0.113.9");
  expect(peerIp(req("203.0.113.9"), undefined, 2)).toBe(""); // fewer entries than proxies: not trusted
  expect(peerIp(req("6.6.6.6, not-an-ip"), undefined, 1)).toBe("");
  expect(peerIp(req("6.6.6.6"), undefined, 0)).toBe("");
});

test("a spoofed leftmost X-Forwarded-For entry does not escape the throttle", async () => {
  const { send } = await setup(2);
  for (let i = 0; i < 2; i++) await send("/xpay/order/create", { ...nativeCreate(), sign: "0".repeat(32) }, `10.9.9.${i}, 198.51.100.20`);
  expect((await send("/xpay/order/create", nativeCreate(), "10.9.9.99, 198.51.100.20")).body.code).toBe(429);
});

test("on a real socket the throttle counts the peer address", async () => {
  const dir = tempDir();
  const gw = openGateway({ db: join(dir, "s.db") });
  await gw.store.addMerchant({ pid: 1001, name: "S", secret: SECRET, now: gw.clock.now() });
  await gw.store.setSetting("auth_fail_limit", "2");
  const server = await startServer(gw, { port: 0, host: "127.0.0.1" });
  closers.push(() => {
    gw.store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  closers.push(() => server.stop());
  const codes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${server.url}/xpay/order/status`, { method: "POST", body: new URLSearchParams({ pid: "1001", out_order_id: "x", sign: "0".repeat(32) }) });
    codes.push(((await res.json()) as { code: number }).code);
  }
  expect(codes).toEqual([401, 401, 429]);
});
