// Issue 27 item 6: reports cannot fill the disk. The attack as found: 3,000 signed /pc reports with a
// unique pay_time each and a 7.8 KB extra parameter were all stored as unmatched (0.5 MB -> 25 MB)
// and never pruned. Now a stored report keeps only its kind's fields, each capped; one signer keeps
// at most report_unmatched_daily unmatched rows a day (the rest are counted); every reply is still
// 200 so the phone stops resending; and a real payment still pays afterwards.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import type { SqliteStore } from "../../src/store/sqlite/index.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { nativeCreate, SECRET, signed, tempDir } from "../helpers.ts";

const FLOOD = 3000;
const BOUND = 1000; // the default of report_unmatched_daily
/** The old code stored ~25 MB for this flood; the bound and the field caps hold it far below. */
const MAX_DB_BYTES = 2 * 1024 * 1024;

const dir = tempDir("xpay-signed-flood-");
const dbPath = join(dir, "flood.db");
const clock = new ManualClock();
let gw: Gateway;
let app: ReturnType<typeof buildApp>;

beforeAll(async () => {
  gw = openGateway({ db: dbPath, clock });
  app = buildApp(gw);
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: clock.now() });
  await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: "A", qrcode: "https://qr.alipay.com/x", now: clock.now() });
});
afterAll(() => {
  gw.store.close();
  rmSync(dir, { recursive: true, force: true });
});

const db = () => (gw.store as SqliteStore).db;

async function post(path: string, body: Record<string, string | number>) {
  const res = await app.handle(new Request(`http://localhost/api/report${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
}

const extra = "x".repeat(7800);

test(`${FLOOD} signed unmatched reports with a 7.8 KB extra parameter: ${BOUND} stored without it, the rest counted, the file small`, async () => {
  for (let i = 0; i < FLOOD; i++) {
    const pay_time = `2026-11-22 ${String(10 + Math.floor(i / 3600)).padStart(2, "0")}:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}`;
    const r = await post("/1001/pc", signed({ amount: 777, pay_type: "alipay", channel_code: "alipay_qr", pay_time, padding: extra, timestamp: clock.now() }));
    expect(r.status).toBe(200);
    expect(r.body.data.outcome).toBe("unmatched");
    if (i === BOUND) {
      expect(r.body.data.report_id).toBeNull();
      expect(r.body.data.reason).toContain("not stored: 1000 unmatched reports of this signer are stored today already");
    }
  }
  db().exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const size = statSync(dbPath).size;
  console.log(`database after ${FLOOD} signed unmatched reports with a 7.8 KB extra parameter: ${(size / 1024).toFixed(0)} KiB`);
  expect(size).toBeLessThan(MAX_DB_BYTES);

  const stored = db().query("SELECT count(*) AS n, max(length(CAST(raw AS BLOB))) AS raw FROM reports WHERE outcome = 'unmatched'").get() as { n: number; raw: number };
  expect(stored.n).toBe(BOUND);
  expect(stored.raw).toBeLessThan(400);
  const one = JSON.parse((db().query("SELECT raw FROM reports WHERE outcome = 'unmatched' LIMIT 1").get() as { raw: string }).raw) as Record<string, string>;
  expect(Object.keys(one).sort()).toEqual(["amount", "channel_code", "pay_time", "pay_type", "sign", "timestamp"]);
  expect(await gw.store.listReportBounds({ sinceDay: 0, limit: 10 })).toMatchObject([{ key: "merchant:1001:payment", stored: BOUND, dropped: FLOOD - BOUND }]);
}, 180_000);

test("xpay report bounds shows what was stored and what was only counted", () => {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.XPAY_DB;
  const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", dbPath, "report", "bounds", "--days", "36500", "--json"], { env });
  expect(p.stderr.toString()).toBe("");
  const out = JSON.parse(p.stdout.toString()) as { bound: number; rows: Record<string, unknown>[] };
  expect(out.bound).toBe(BOUND);
  expect(out.rows).toMatchObject([{ signer: "merchant:1001", kind: "payment", stored: BOUND, not_stored: FLOOD - BOUND }]);
});

test("at the bound, a report that pays an order is still stored and pays it", async () => {
  const create = await app.handle(new Request("http://localhost/xpay/order/create", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(nativeCreate({ money: "12.00" })) }));
  const order = ((await create.json()) as any).data as { trade_no: string; trade_amount: string };
  const cents = Math.round(Number(order.trade_amount) * 100);
  const r = await post("/1001/pc", signed({ amount: cents, pay_type: "alipay", channel_code: "alipay_qr", padding: extra, timestamp: clock.now() }));
  expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: order.trade_no });
  expect(typeof r.body.data.report_id).toBe("number");
  expect((await gw.store.getOrder(order.trade_no))!.status).toBe(2);
});
