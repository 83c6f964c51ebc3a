// Behind a reverse proxy: X-Forwarded-For gives clientip, X-Forwarded-Proto/-Host the links'
// base URL, but only when the operator trusts the proxy and did not name a base URL.
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { nativeCreate, SECRET, tempDir } from "../helpers.ts";

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

async function setup(o: { trustProxy: boolean; baseUrlExplicit: boolean }) {
  const dir = tempDir();
  const gw = openGateway({ db: join(dir, "p.db"), baseUrl: "http://127.0.0.1:8080", clock: new ManualClock(), ...o });
  closers.push(() => {
    gw.store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await gw.store.addMerchant({ pid: 1001, name: "S", secret: SECRET, now: 0 });
  await gw.store.addChannel({ pid: 0, payType: "alipay", code: "a", name: "A", qrcode: "q", now: 0 });
  const app = buildApp(gw);
  const res = await app.handle(
    new Request("http://localhost/xpay/order/create", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "6.6.6.6, 203.0.113.9", "x-forwarded-proto": "https", "x-forwarded-host": "pay.example.com" },
      body: JSON.stringify(nativeCreate({ out_trade_no: "PX" })),
    }),
  );
  const body = (await res.json()) as any;
  return { uri: body.data.uri as string, order: (await gw.store.getOrder(body.data.trade_no))! };
}

test("trusted proxy without a configured base URL: forwarded scheme, host and the address the proxy appended (not the client's leftmost entry)", async () => {
  const { uri, order } = await setup({ trustProxy: true, baseUrlExplicit: false });
  expect(uri).toStartWith("https://pay.example.com/pay/");
  expect(order.clientip).toBe("203.0.113.9");
});

test("a configured base URL wins; an untrusted proxy's headers are ignored", async () => {
  expect((await setup({ trustProxy: true, baseUrlExplicit: true })).uri).toStartWith("http://127.0.0.1:8080/pay/");
  const untrusted = await setup({ trustProxy: false, baseUrlExplicit: false });
  expect(untrusted.uri).toStartWith("http://127.0.0.1:8080/pay/");
  expect(untrusted.order.clientip).not.toBe("203.0.113.9");
});
