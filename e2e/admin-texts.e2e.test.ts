// Issue 28 items 5-7 in a real browser against `xpay serve`, at 1440 and 390 px: a month of
// seeded orders (sums in the hundreds of thousands), a ¥66.60 payment with no order beside two
// pending orders of other amounts. Amounts and counts are grouped, the chart's legend says
// "¥1,234.56" (its axis, drawn on a canvas, is seen in the screenshots: 万, never "2000k"), the
// report's reason is Chinese with yuan, the assign screen shows each candidate's distance from the
// payment, the audit log labels and the sessions page's short user agent.
// Screenshots: artifacts/screenshots/i28c-*.png (XPAY_SHOTS_DIR to keep them elsewhere).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { seedOrders } from "../bench/seed-orders.ts";
import { nativeCreate, SECRET, signed } from "../test/helpers.ts";
import { login, openPage, PASSWORD, startConsole, SHOTS } from "./support.ts";

const OUT = process.env.XPAY_SHOTS_DIR ?? SHOTS;
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: join(OUT, `i28c-${name}.png`), fullPage });

const xc = startConsole("xpay-texts-e2e-");
let browser: Browser;
let base = "";
let reportId = 0;

beforeAll(async () => {
  const now = Math.floor(Date.now() / 1000);
  await seedOrders(xc.db, { orders: 6000, days: 30, merchants: 2, accounts: 3, now: now - 600 });
  const raw = new Database(xc.db);
  raw.run("UPDATE channel_accounts SET pid = 1001 WHERE code = 'acc0'");
  raw.run("DELETE FROM reports WHERE outcome = 'unmatched'");
  raw.close();
  xc.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  xc.cli(["settings", "set", "public_rate_limit", "0"]);
  ({ base } = await xc.serve());
  for (const money of ["66.58", "66.70"]) {
    const o = await xc.post("/xpay/order/create", nativeCreate({ money, pay_type: "alipay" }));
    expect(o.code).toBe(200);
  }
  const r = await xc.post<{ data: { outcome: string; report_id: number } }>("/api/report/1001/pc", signed({ amount: 6660, pay_type: "alipay", channel_code: "acc0", timestamp: Math.floor(Date.now() / 1000) }, SECRET));
  expect(r.data.outcome).toBe("unmatched");
  reportId = r.data.report_id;
  browser = await xc.launch();
}, 120_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${OUT}/i28c-*.png`);
});

const GROUPED_YUAN = /^\d{1,3}(,\d{3})*\.\d\d$/;

for (const [width, height] of [[1440, 900], [390, 844]] as const) {
  describe(`at ${width} px`, () => {
    test("the dashboard: grouped amounts and counts, the chart legend in yuan", async () => {
      const context = await browser.newContext({ viewport: { width, height }, locale: "zh-CN" });
      const { page, problems } = await openPage(context);
      await login(page, base);
      const last30 = (await page.textContent("#period-last30 .dash-value"))!.trim();
      expect(last30).toMatch(GROUPED_YUAN);
      expect(Number(last30.replaceAll(",", ""))).toBeGreaterThan(100_000);
      expect((await page.textContent("#period-last30 .dash-paid"))!).toMatch(/^\d,\d{3} 笔已支付$/);
      // The legend follows the cursor: hover the middle of the 30-day chart.
      const chart = page.locator("#chart-days .dash-chart .u-over");
      await chart.scrollIntoViewIfNeeded();
      const box = (await chart.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height - 5);
      const legend = (await page.locator("#chart-days .u-legend .u-series").nth(1).locator(".u-value").textContent())!.trim();
      expect(legend).toMatch(/^¥\d{1,3}(,\d{3})*\.\d\d$/);
      await shot(page, `dashboard-${width}-chart`, false);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `dashboard-${width}-top`, false);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    test("a payment with no order: its reason in Chinese and yuan, the candidates' distance from it", async () => {
      const context = await browser.newContext({ viewport: { width, height }, locale: "zh-CN" });
      const { page, problems } = await openPage(context);
      await login(page, base);
      await page.goto(`${base}/admin/reports?outcome=unmatched`);
      const cell = page.locator(`tr[data-report="${reportId}"] td[title^="no pending order"]`);
      expect((await cell.textContent())!.trim()).toStartWith("没有待支付订单匹配 ¥66.60 · 支付宝");
      await shot(page, `reports-${width}`, false);
      await page.goto(`${base}/admin/reports/${reportId}`);
      const gaps = await page.$$eval("#candidates [data-gap]", (tds) => tds.map((td) => td.textContent));
      expect(gaps.sort()).toEqual(["+¥0.10", "-¥0.02"]);
      expect(await page.textContent("#candidates")).toContain("支付宝");
      await page.locator("#report-assign").scrollIntoViewIfNeeded();
      await shot(page, `assign-${width}`);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    test("the audit log says what happened; sessions name the browser", async () => {
      const context = await browser.newContext({ viewport: { width, height }, locale: "zh-CN" });
      const { page, problems } = await openPage(context);
      await login(page, base);
      await page.goto(`${base}/admin/audit`);
      expect((await page.textContent('#audit-table td[data-action="session.login"]'))!.trim()).toBe("登录");
      await shot(page, `audit-${width}`, false);
      await page.goto(`${base}/admin/sessions`);
      expect(await page.textContent("#sessions")).toMatch(/Chrome \d+ · Linux/);
      await shot(page, `sessions-${width}`, false);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);
  });
}
