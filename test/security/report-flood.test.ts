// Issue 14 item 4 (storage): refused reports are what an outsider can send without a secret, so a
// flood of them must leave the database under a fixed size, and real reports must still settle.
// The per-address throttle (auth_fail_limit) is off here: the bound must hold without it, e.g.
// against a sender with thousands of IPv6 addresses.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { REFUSAL_LIMITS } from "../../src/core/refusals.ts";
import type { SqliteStore } from "../../src/store/sqlite/index.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { nativeCreate, SECRET, signed, tempDir } from "../helpers.ts";

/** The bound this test holds the file to, after the flood and a checkpoint. */
const MAX_DB_BYTES = 3 * 1024 * 1024;
const FLOOD = 20_000;

const dir = tempDir("xpay-flood-");
const dbPath = join(dir, "flood.db");
const clock = new ManualClock();
let gw: Gateway;
let app: ReturnType<typeof buildApp>;

beforeAll(async () => {
  gw = openGateway({ db: dbPath, clock, trustProxy: 1 });
  app = buildApp(gw);
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: clock.now() });
  await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: "A", qrcode: "https://qr.alipay.com/x", now: clock.now() });
  await gw.store.setSetting("auth_fail_limit", "0");
});
afterAll(() => {
  gw.store.close();
  rmSync(dir, { recursive: true, force: true });
});

const db = () => (gw.store as SqliteStore).db;

async function post(path: string, body: Record<string, string | number>, ip: string) {
  const res = await app.handle(
    new Request(`http://localhost/api/report${path}`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify(body) }),
  );
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
}

// Near the 8 KiB the old code stored per refusal, in multi-byte text so the byte cut is exercised.
const filler = "收款到账".repeat(680) + "x".repeat(40);

test(`a flood of ${FLOOD} refused reports leaves the database under ${MAX_DB_BYTES / 1048576} MiB`, async () => {
  const fewIps = ["203.0.113.7", "203.0.113.8", "198.51.100.9", "2001:db8::1"];
  for (let i = 0; i < FLOOD; i++) {
    // Four addresses send most of it; the rest comes from a new IPv6 address each time.
    const ip = i % 5 === 4 ? `2001:db8:${(i >> 16).toString(16)}::${(i & 0xffff).toString(16)}` : fewIps[i % 4]!;
    const r =
      i % 2 === 0
        ? await post(`/${100000 + i}/pc`, { amount: 1000, pay_type: "alipay", channel_code: filler, client_name: filler, timestamp: clock.now(), sign: "0".repeat(32) }, ip)
        : await post("/1001/pc", { amount: 1000, pay_type: "alipay", channel_code: "alipay_qr", note: filler, timestamp: clock.now(), sign: "f".repeat(32) }, ip);
    expect(r.status).toBe(i % 2 === 0 ? 404 : 401); // unknown merchant; bad signature (extra fields are allowed)
  }
  db().exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const size = statSync(dbPath).size;
  console.log(`database after ${FLOOD} refused reports: ${(size / 1024).toFixed(0)} KiB`);
  expect(size).toBeLessThan(MAX_DB_BYTES);

  const kept = db().query("SELECT count(*) AS n, max(length(CAST(raw AS BLOB))) AS raw, max(length(CAST(client AS BLOB))) AS client FROM reports WHERE outcome = 'rejected'").get() as any;
  expect(kept.n).toBeLessThanOrEqual(REFUSAL_LIMITS.total);
  expect(kept.raw).toBeLessThanOrEqual(REFUSAL_LIMITS.rawBytes);
  expect(kept.client).toBeLessThanOrEqual(64);
  const perSource = db().query("SELECT source, count(*) AS n FROM reports WHERE outcome = 'rejected' GROUP BY source ORDER BY n DESC LIMIT 1").get() as any;
  expect(perSource.n).toBe(REFUSAL_LIMITS.perSource);
  // Every refusal is counted, including the ones whose row is gone.
  const counted = db().query("SELECT sum(count) AS n, count(*) AS rows FROM report_refusals").get() as any;
  expect(counted.n).toBe(FLOOD);
  expect(counted.rows).toBeLessThanOrEqual(REFUSAL_LIMITS.counterRows + 1);
  const byIp = (await gw.store.listRefusalCounts({ limit: 4 })).map((c) => `${c.source} ${c.reason} ${c.count}`).sort();
  // Each rotating pid counts under one reason per address: "unknown merchant (pid 100042)".
  const each = FLOOD / 5;
  expect(byIp).toEqual([`198.51.100.9 unknown merchant ${each}`, `2001:db8::1 signature mismatch ${each}`, `203.0.113.7 unknown merchant ${each}`, `203.0.113.8 signature mismatch ${each}`]);
}, 120_000);

test("after the flood, a good report still settles and pays its order", async () => {
  const create = await app.handle(
    new Request("http://localhost/xpay/order/create", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(nativeCreate({ money: "12.00" })) }),
  );
  const order = ((await create.json()) as any).data as { trade_no: string; trade_amount: string };
  const cents = Math.round(Number(order.trade_amount) * 100);
  const r = await post("/1001/pc", signed({ amount: cents, pay_type: "alipay", channel_code: "alipay_qr", timestamp: clock.now() }), "203.0.113.7");
  expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: order.trade_no });
  expect((await gw.store.getOrder(order.trade_no))!.status).toBe(2);
});
