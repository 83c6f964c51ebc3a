// Report reasons stored as codes, and failing notifications grouped, in a real browser against
// `xpay serve` at 1440 and 390 px in Chinese: a ¥66.60 payment with no order reads its reason in
// Chinese with the amount in yuan on the report's page; five notifications of one merchant whose
// server is down are one row of the dashboard's attention list (merchant, error, count, latest),
// linked to the merchant's delivery health. Screenshots: artifacts/screenshots/reasons-*.png (XPAY_SHOTS_DIR).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { seedOrders } from "../bench/seed-orders.ts";
import { nativeCreate, SECRET, signed } from "../test/helpers.ts";
import { openPage, PASSWORD, startConsole, twoWidths, SHOTS } from "./support.ts";

const OUT = process.env.XPAY_SHOTS_DIR ?? SHOTS;
const shot = (page: Page, name: string, fullPage = false) => page.screenshot({ path: join(OUT, `reasons-${name}.png`), fullPage });

const xc = startConsole("xpay-reasons-e2e-");
let browser: Browser;
let base = "";
let reportId = 0;

beforeAll(async () => {
  const now = Math.floor(Date.now() / 1000);
  await seedOrders(xc.db, { orders: 40, days: 2, merchants: 1, accounts: 2, now: now - 3600 });
  const raw = new Database(xc.db);
  raw.run("UPDATE channel_accounts SET pid = 1001 WHERE code = 'acc0'"); // a merchant's secret pays only its own accounts
  raw.run("DELETE FROM reports WHERE outcome = 'unmatched'");
  raw.run("DELETE FROM notification_attempts"); // the seed's history; the five below are today's
  raw.run("DELETE FROM notifications");
  raw.close();
  xc.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  xc.cli(["settings", "set", "public_rate_limit", "0"]);
  xc.cli(["settings", "set", "alert_notify_failures", "1"]);
  ({ base } = await xc.serve());
  const ts = () => Math.floor(Date.now() / 1000);
  const r = await xc.post<{ data: { outcome: string; report_id: number; reason: string } }>("/api/report/1001/pc", signed({ amount: 6660, pay_type: "alipay", channel_code: "acc0", timestamp: ts() }, SECRET));
  expect(r.data.outcome).toBe("unmatched");
  expect(r.data.reason).toBe("no pending order matches amount 6660, pay_type alipay, channel_code acc0"); // the wire keeps its English
  reportId = r.data.report_id;
  // Five paid orders whose merchant's server refuses every connection.
  for (let i = 0; i < 5; i++) {
    const o = await xc.post("/xpay/order/create", nativeCreate({ money: `${31 + i}.00`, pay_type: "alipay", notify_url: "http://127.0.0.1:9/n" }));
    const cents = Math.round(Number(o.data.trade_amount) * 100);
    const paid = await xc.post<{ data: { outcome: string } }>("/api/report/1001/pc", signed({ amount: cents, pay_type: "alipay", channel_code: "acc0", timestamp: ts() }, SECRET));
    expect(paid.data.outcome).toBe("matched");
  }
  await Bun.sleep(800); // each notification's first attempt
  browser = await xc.launch();
}, 120_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${OUT}/reasons-*.png`);
});

describe("zh at 1440 and 390 px", () => {
  test("the report's reason in Chinese with yuan; the failing notifications as one group", async () => {
    const { desktop, phone } = await twoWidths(browser, base);
    for (const [width, context] of [[1440, desktop], [390, phone]] as const) {
      const { page, problems } = await openPage(context);
      await page.goto(`${base}/admin/reports/${reportId}`);
      const body = (await page.textContent("main"))!;
      expect(body).toContain("没有待支付订单匹配 ¥66.60 · 支付宝 · 通道编码 acc0");
      expect(body).not.toContain("no pending order matches");
      await shot(page, `report-${width}`, true);

      await page.goto(`${base}/admin`);
      expect((await page.textContent('a[href="#att-notify"] b'))?.trim()).toBe("5");
      const rows = page.locator("#att-notify tbody tr");
      expect(await rows.count()).toBe(1);
      const row = (await rows.first().textContent())!.replace(/\s+/g, " ");
      expect(row).toContain("商户 1001");
      expect(row).toContain("5 条");
      expect(row).toMatch(/ECONNREFUSED|connect|refused/i);
      await page.evaluate(() => window.scrollTo(0, document.getElementById("attention")!.getBoundingClientRect().top + window.scrollY - 20));
      await shot(page, `attention-${width}`);
      await page.click('#att-notify a[href="/admin/merchants/1001#merchant-delivery"]');
      await page.waitForURL(`${base}/admin/merchants/1001#merchant-delivery`);
      expect(await page.isVisible("#resend-form")).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    }
    await desktop.close();
    await phone.close();
  }, 90_000);
});
