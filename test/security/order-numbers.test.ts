// Order numbers are not guessable (issue 27 item 11). trade_no was yyyyMMddHHmmss + 6 random
// digits: 10^6 numbers per second, and order_id is the only key of the public qrcode and pay-type
// calls. /api/order/info by pid + out_order_id (the spec's, kept) hands order_id to whoever guesses
// a shop's order number. Now: 12 random digits per day, and lookups that miss are logged and
// throttled per client address, answered in the template API's shape.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import { newTradeNo } from "../../src/core/ids.ts";
import type { LogFields } from "../../src/core/log.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { nativeCreate, SECRET, tempDir } from "../helpers.ts";

describe("trade_no", () => {
  test("20 digits, the China-time date in front, then 12 random digits: one instant's numbers share only the date", () => {
    const at = Date.UTC(2026, 10, 23, 17, 0, 0); // 01:00 on the 24th in China
    const numbers = Array.from({ length: 2000 }, () => newTradeNo(at));
    for (const n of numbers) expect(n).toMatch(/^20261124\d{12}$/);
    // yyyyMMddHHmmss + 6 digits: all 2000 had the same first 14 digits.
    expect(new Set(numbers.map((n) => n.slice(0, 14))).size).toBeGreaterThan(1990);
    // Every random digit position takes every digit value.
    for (let i = 8; i < 20; i++) expect(new Set(numbers.map((n) => n[i])).size).toBe(10);
  });
});

describe("lookups that miss", () => {
  let close: () => void;
  let setLimit: (v: string) => Promise<void>;
  let events: { name: string; fields?: LogFields }[];
  let clock: ManualClock;
  let ask: (path: string, body: Record<string, string>, ip: string) => Promise<{ status: number; retryAfter: string | null; body: any }>;
  let tradeNo = "";

  beforeEach(async () => {
    const dir = tempDir();
    clock = new ManualClock();
    const gw = openGateway({ db: join(dir, "t.db"), clock, trustProxy: true });
    close = () => {
      gw.store.close();
      rmSync(dir, { recursive: true, force: true });
    };
    events = [];
    setLimit = async (v) => {
      await gw.store.setSetting("lookup_miss_limit", v);
      gw.forgetSettings();
    };
    gw.log = { event: (name, fields) => events.push({ name, fields }), error: () => {} };
    await gw.store.addMerchant({ pid: 1001, name: "S", secret: SECRET, now: clock.now() });
    await gw.store.addChannel({ pid: 0, payType: "alipay", code: "alipay_qr", name: "A", qrcode: "q", now: clock.now() });
    await gw.store.setSetting("lookup_miss_limit", "5");
    const app = buildApp(gw);
    const made = await app.handle(new Request("http://localhost/xpay/order/create", { method: "POST", body: new URLSearchParams(nativeCreate({ out_trade_no: "SHOP-100" })) }));
    tradeNo = ((await made.json()) as any).data.trade_no;
    ask = async (path, body, ip) => {
      const res = await app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify(body) }));
      return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
    };
  });
  afterEach(() => close());

  test("walking out_order_id: 5 misses a minute, then 429 in the template shape for everything from that address", async () => {
    const walker = "198.51.100.9";
    for (let i = 101; i <= 105; i++) {
      expect(await ask("/api/order/info", { pid: "1001", out_order_id: `SHOP-${i}` }, walker)).toMatchObject({ status: 404, body: { code: 404, message: "订单不存在", data: null } });
    }
    const limited = await ask("/api/order/info", { pid: "1001", out_order_id: "SHOP-100" }, walker);
    expect(limited).toEqual({ status: 429, retryAfter: "12", body: { code: 429, message: "查询不到的订单过多，请一分钟后再试", data: null } });
    // Walking order_id on the calls it guards is refused the same way.
    expect((await ask("/api/order/qrcode", { order_id: tradeNo }, walker)).status).toBe(429);
    expect((await ask("/api/order/pay-type", { order_id: tradeNo, pay_type: "alipay" }, walker)).status).toBe(429);
    // Another address, and the payer polling its own order, are not touched; hits never count.
    for (let i = 0; i < 20; i++) expect((await ask("/api/order/status", { order_id: tradeNo }, "203.0.113.4")).status).toBe(200);
    expect((await ask("/api/order/info", { pid: "1001", out_order_id: "SHOP-100" }, "203.0.113.4")).body.order_id).toBe(tradeNo);
    clock.advance(12); // one miss's share of a minute at 5 per minute
    expect((await ask("/api/order/info", { pid: "1001", out_order_id: "SHOP-100" }, walker)).status).toBe(200);
  });

  test("every miss is logged with the address, the kind of lookup and the id asked", async () => {
    await ask("/api/order/info", { pid: "1001", out_order_id: "SHOP-999" }, "198.51.100.9");
    await ask("/api/order/status", { order_id: "20261124000000000000" }, "198.51.100.9");
    await ask("/api/order/info", { order_id: tradeNo }, "198.51.100.9");
    expect(events.filter((e) => e.name === "order.lookup_miss").map((e) => e.fields)).toEqual([
      { source: "198.51.100.9", by: "out_order_id", id: "SHOP-999", pid: 1001 },
      { source: "198.51.100.9", by: "order_id", id: "20261124000000000000" },
    ]);
  });

  test("0 turns the limit off; misses are still logged", async () => {
    await setLimit("0");
    for (let i = 0; i < 10; i++) expect((await ask("/api/order/info", { pid: "1001", out_order_id: `X${i}` }, "198.51.100.9")).status).toBe(404);
    expect(events.filter((e) => e.name === "order.lookup_miss").length).toBe(10);
  });
});

describe("trade_no on SQLite (made from the order's place, migration 041)", () => {
  test("a thousand numbers made one after another look drawn at random: every digit position takes every value, neighbours share nothing", async () => {
    const dir = tempDir();
    const clock = new ManualClock();
    const gw = openGateway({ db: join(dir, "t.db"), clock });
    try {
      await gw.store.addMerchant({ pid: 1001, name: "S", secret: SECRET, now: clock.now() });
      await gw.store.addChannel({ pid: 0, payType: "alipay", code: "alipay_qr", name: "A", qrcode: "q", now: clock.now(), maxAmount: 10_000_000 });
      const app = buildApp(gw);
      const numbers: string[] = [];
      for (let i = 0; i < 1000; i++) {
        const made = await app.handle(new Request("http://localhost/xpay/order/create", { method: "POST", body: new URLSearchParams(nativeCreate({ out_trade_no: `SEQ-${i}`, money: `${1 + i}.00` })) }));
        numbers.push(((await made.json()) as any).data.trade_no);
      }
      const day = numbers[0]!.slice(0, 8);
      for (const n of numbers) expect(n).toMatch(new RegExp(`^${day}\\d{12}$`));
      expect(new Set(numbers).size).toBe(1000);
      for (let i = 8; i < 20; i++) expect(new Set(numbers.map((n) => n[i])).size).toBe(10);
      // Consecutive orders: their 12 digits agree in about a tenth of the positions, as random ones do.
      let same = 0;
      for (let k = 1; k < numbers.length; k++) for (let i = 8; i < 20; i++) if (numbers[k]![i] === numbers[k - 1]![i]) same++;
      expect(same / (999 * 12)).toBeGreaterThan(0.07);
      expect(same / (999 * 12)).toBeLessThan(0.13);
      // Nor does the number grow with the order: about half of the neighbours go down.
      const down = numbers.slice(1).filter((n, k) => n < numbers[k]!).length;
      expect(down).toBeGreaterThan(400);
      expect(down).toBeLessThan(600);
    } finally {
      gw.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
