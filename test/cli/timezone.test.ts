// Issue 15, one time zone: every time the CLI prints is in the `timezone` setting (default
// Asia/Shanghai, the zone of trade_no) with its UTC offset, so no time is read in the wrong zone;
// the wire (trade_no, epay addtime) stays on China time whatever the setting says.
import { afterAll, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import { formatDateTime } from "../../src/core/ids.ts";
import { formatLocal, timeZoneProblem } from "../../src/core/time.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { nativeCreate, tempDir } from "../helpers.ts";
import { rmSync } from "node:fs";

const MAIN = resolve("src/cli/main.ts");
const dir = tempDir("xpay-tz-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, "xpay.db");
const xpay = (...args: string[]) => {
  const p = Bun.spawnSync([process.execPath, MAIN, "--db", db, ...args], { env: { ...process.env, NO_COLOR: "1" } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

// 2026-11-23 12:15:00 UTC = 20:15:00 in Shanghai.
const AT = Date.UTC(2026, 10, 23, 12, 15, 0);
let tradeNo = "";

test("setup: an order created at a known time, a client seen then", async () => {
  const gw = openGateway({ db, clock: new ManualClock(AT) });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: "a1b2c3d4e5f60718293a4b5c6d7e8f90", now: AT / 1000 });
  await gw.store.addChannel({ pid: 0, payType: "alipay", code: "a1", name: "A", qrcode: "https://qr.alipay.com/x", now: AT / 1000 });
  await gw.store.recordClientSeen({ kind: "phone", pid: 1001, name: "phone-1", channelId: null, extData: "", lastSeenAt: AT / 1000 }, []);
  const res = await buildApp(gw).handle(new Request("http://localhost/xpay/order/create", { method: "POST", body: new URLSearchParams(nativeCreate({ out_trade_no: "TZ1" })) }));
  tradeNo = ((await res.json()) as { data: { trade_no: string } }).data.trade_no;
  gw.store.close();
  expect(tradeNo.slice(0, 8)).toBe("20261123");
});

test("default Asia/Shanghai: order inspect/list and client list show +08:00", () => {
  const o = JSON.parse(xpay("order", "inspect", tradeNo, "--json").out);
  expect(o.created_at).toBe("2026-11-23 20:15:00 +08:00");
  expect(o.expire_time).toBe("2026-11-23 20:30:00 +08:00");
  expect(xpay("order", "list").out).toContain("2026-11-23 20:15:00 +08:00");
  expect(JSON.parse(xpay("client", "list", "--json").out)[0].last_seen).toBe("2026-11-23 20:15:00 +08:00");
});

test("timezone UTC: the same times with +00:00; trade_no and the wire date keep China time", () => {
  expect(xpay("settings", "set", "timezone", "UTC").code).toBe(0);
  const o = JSON.parse(xpay("order", "inspect", tradeNo, "--json").out);
  expect(o.created_at).toBe("2026-11-23 12:15:00 +00:00");
  expect(o.expire_time).toBe("2026-11-23 12:30:00 +00:00");
  expect(JSON.parse(xpay("client", "list", "--json").out)[0].last_seen).toBe("2026-11-23 12:15:00 +00:00");
  expect(o.trade_no.slice(0, 8)).toBe("20261123");
  expect(formatDateTime(AT / 1000)).toBe("2026-11-23 20:15:00"); // epay addtime/endtime
});

test("a bad timezone is refused in one line and not stored", () => {
  const r = xpay("settings", "set", "timezone", "Asia/Nowhere");
  expect({ err: r.err, code: r.code }).toEqual({ err: "error: timezone must be an IANA time zone name such as Asia/Shanghai or UTC (unknown: Asia/Nowhere)\n", code: 1 });
  expect(xpay("settings", "get", "timezone").out).toBe("UTC\n");
});

test("formatLocal: offsets that are not whole hours, and summer time", () => {
  expect(formatLocal(AT, "Asia/Kolkata")).toBe("2026-11-23 17:45:00 +05:30");
  expect(formatLocal(Date.UTC(2026, 6, 1, 0, 0, 0), "Europe/Berlin")).toBe("2026-07-01 02:00:00 +02:00");
  expect(formatLocal(Date.UTC(2026, 10, 23, 16, 0, 0))).toBe("2026-11-24 00:00:00 +08:00");
  expect(timeZoneProblem("UTC; rm -rf")).not.toBeNull();
});
