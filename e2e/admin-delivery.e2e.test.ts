// Issue 28 in a real browser against `xpay serve` and its notification worker: a merchant whose
// server refused every notification shows as failing in the merchants list (with its income); once
// the server is back, "resend every failed notification" on its page re-queues them all, and the
// outcome updates itself without a reload until all are delivered. The orders list shows each
// order's notification, the filter's totals, ticks rows for a bulk close, and exports CSV. At 1440
// and 390 px wide; screenshots to artifacts/screenshots/admin-delivery-*.png.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { openGateway } from "../src/server/bootstrap.ts";
import { nativeCreate, SECRET, signed } from "../test/helpers.ts";
import { login, openPage, PASSWORD, SHOTS, shots, startConsole } from "./support.ts";

const xc = startConsole("xpay-delivery-e2e-");
const { db, cli } = xc;
let browser: Browser;
let wide: BrowserContext;
let base = "";
let up = false;
let arrived = 0;
const merchantServer = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () => (up ? (arrived++, new Response("success")) : new Response("connection refused by upstream", { status: 502 })),
});
const now = () => Math.floor(Date.now() / 1000);
const shot = shots("admin-delivery");
const pending: string[] = [];

beforeAll(async () => {
  const gw = openGateway({ db, baseUrl: "http://127.0.0.1:1" });
  await gw.store.addMerchant({ pid: 1001, name: "示例商城", secret: SECRET, now: now() });
  await gw.store.addMerchant({ pid: 1002, name: "会员订阅", secret: "b".repeat(32), now: now() });
  await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "main", name: "支付宝 主账户", qrcode: "https://qr.alipay.com/fkx01", now: now() });
  gw.store.close();
  cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  cli(["settings", "set", "public_rate_limit", "0"]);
  ({ base } = await xc.serve(["--base-url", "https://pay.example.com"]));
  const notify = `http://127.0.0.1:${merchantServer.port}/notify`;
  for (const [i, money] of ["12.00", "30.00", "88.80", "5.20"].entries()) {
    const r = await xc.post<{ data: { trade_no: string } }>("/xpay/order/create", nativeCreate({ money, notify_url: notify, clientip: "203.0.113.7", out_trade_no: `SO-${i}` }));
    const paid = await xc.post<{ data: { outcome: string } }>("/api/report/1001/pc", signed({ amount: Math.round(Number(money) * 100), pay_type: "alipay", channel_code: "main", timestamp: now() }, SECRET));
    expect({ i, trade: !!r.data.trade_no, outcome: paid.data.outcome }).toEqual({ i, trade: true, outcome: "matched" });
  }
  for (const money of ["7.00", "9.00"]) pending.push((await xc.post<{ data: { trade_no: string } }>("/xpay/order/create", nativeCreate({ money, notify_url: notify }))).data.trade_no);
  browser = await xc.launch();
  wide = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "zh-CN" });
  const page = await wide.newPage();
  await login(page, base);
  // The worker's first attempts: every notification refused.
  for (let i = 0; i < 100; i++) {
    await page.goto(`${base}/admin/merchants`);
    if ((await page.locator('tr[data-pid="1001"]').textContent())?.includes("失败未送达 4")) break;
    await Bun.sleep(200);
  }
  await page.close();
}, 120_000);

afterAll(async () => {
  merchantServer.stop(true);
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-delivery-*.png`);
});

describe("delivery health and bulk resend in chromium", () => {
  test("1440: the merchants list shows the failing merchant; its page resends everything, the outcome updates itself", async () => {
    const { page, problems } = await openPage(wide);
    await page.goto(`${base}/admin/merchants`);
    const row = page.locator('tr[data-pid="1001"]');
    expect(await row.locator("[data-delivery]").textContent()).toBe("失败中");
    expect(await row.textContent()).toContain("HTTP 502");
    expect(await row.textContent()).toContain("¥136.00");
    expect(await page.locator('tr[data-pid="1002"] [data-delivery]').textContent()).toBe("暂无通知");
    await shot(page, "merchants");
    await row.locator("a", { hasText: "1001" }).click();
    await page.waitForURL(`${base}/admin/merchants/1001`);
    expect(await page.textContent("#merchant-api")).toContain("https://pay.example.com/xpay/epay/");
    await shot(page, "merchant-failing");
    up = true;
    await page.fill("#f-resend-reason", "商户已修复服务器");
    page.once("dialog", (d) => void d.accept());
    await page.click("#resend-form button[type=submit]");
    await page.waitForSelector("#resend-progress");
    expect(await page.textContent("#resend-progress")).toContain("已重新排队 4 条");
    await page.waitForFunction(() => document.querySelector("#resend-progress")?.textContent === "已重新排队 4 条，4 条已送达", null, { timeout: 20_000 });
    expect(arrived).toBe(4);
    expect(await page.locator("#merchant-delivery [data-delivery]").textContent()).toBe("正常"); // without a reload
    await shot(page, "merchant-resent");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("1440: the orders list's notification column, totals, bulk close and CSV export", async () => {
    const { page, problems } = await openPage(wide);
    await page.goto(`${base}/admin/orders?pid=1001`);
    await page.waitForSelector("#orders-totals[data-count]");
    expect(await page.textContent("#orders-totals")).toBe("共 6 笔，订单金额 ¥152.00；其中已支付 4 笔，实收 ¥136.00");
    expect(await page.locator('#orders-table [data-notify="delivered"]').count()).toBe(4);
    await page.fill("#f-ip", "203.0.113.7");
    await page.click("#orders-filter button[type=submit]");
    await page.waitForURL(/ip=203/);
    expect(await page.locator("#orders-table tbody tr[data-trade-no]").count()).toBe(4);
    const csv = await page.request.get(`${base}/admin/orders/export.csv?ip=203.0.113.7`);
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect((await csv.text()).trim().split("\r\n")).toHaveLength(5);
    await page.goto(`${base}/admin/orders?status=pending`);
    await page.check('#orders-table thead input[type="checkbox"]');
    expect(await page.locator('#orders-table tbody input[name="trade_no"]:checked').count()).toBe(2);
    await page.fill("#f-bulk-reason", "测试订单，关闭");
    await shot(page, "orders-bulk");
    page.once("dialog", (d) => void d.accept());
    await page.click('#orders-bulk button[value="close"]');
    await page.waitForSelector("#bulk-done");
    expect(await page.textContent("#bulk-done")).toBe("已关闭 2 笔；0 笔未关闭（已不是待支付）。");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("390: merchants, a merchant and the orders list fit the phone's width", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", storageState: await wide.storageState() });
    const { page, problems } = await openPage(phone);
    for (const [path, name] of [["/admin/merchants", "phone-merchants"], ["/admin/merchants/1001", "phone-merchant"], ["/admin/orders", "phone-orders"]] as const) {
      await page.goto(`${base}${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
      await shot(page, name);
    }
    expect(problems).toEqual([]);
    await phone.close();
  }, 60_000);
});
