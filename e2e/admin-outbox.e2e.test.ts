// /admin/notifications in a real browser against `xpay serve` (issue 28): a paid order's failing
// notification listed under 待发送, resent from the list (the notice, back on the same filter);
// 390 px fits. Screenshots: artifacts/screenshots/admin-outbox-*.png.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { nativeCreate, SECRET } from "../test/helpers.ts";
import { openPage, PASSWORD, SHOTS, shots, startConsole, twoWidths } from "./support.ts";

const xc = startConsole("xpay-outbox-e2e-");
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
let base = "";
let tradeNo = "";
const dead = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("down", { status: 503 }) });

beforeAll(async () => {
  xc.cli(["migrate"]);
  xc.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  xc.cli(["merchant", "add", "--name", "示例商城", "--pid", "1001", "--secret", SECRET]);
  xc.cli(["channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "ali", "--name", "支付宝", "--qrcode", "https://qr.alipay.com/fkx1"]);
  xc.cli(["settings", "set", "public_rate_limit", "0"]);
  xc.cli(["settings", "set", "notify_block_private", "0"]);
  ({ base } = await xc.serve());
  const created = await xc.post("/xpay/order/create", nativeCreate({ money: "12.00", notify_url: `http://127.0.0.1:${dead.port}/notify` }));
  expect(created.code).toBe(200);
  tradeNo = String(created.data.trade_no);
  xc.cli(["simulate-pay", tradeNo]);
  browser = await xc.launch();
  ({ desktop, phone } = await twoWidths(browser, base));
}, 90_000);

afterAll(async () => {
  dead.stop(true);
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-outbox-*.png`);
});

const shot = shots("admin-outbox");

test("1440: the pending notification, resent from the list", async () => {
  const { page, problems } = await openPage(desktop);
  await page.goto(`${base}/admin`);
  await page.click('nav.sidenav a[href="/admin/notifications"]');
  await page.selectOption("#f-status", "pending");
  await page.click("#outbox-filter button[type=submit]");
  await page.waitForURL(/status=pending/);
  const row = page.locator(`#outbox-table tr[data-trade-no="${tradeNo}"]`);
  expect(await row.count()).toBe(1);
  await row.locator("button").click();
  await page.waitForURL(/resent=/);
  expect(await page.textContent("#outbox-notice")).toContain(tradeNo);
  expect(page.url()).toContain("status=pending");
  await shot(page, "resent");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

test("390: the page fits", async () => {
  const { page, problems } = await openPage(phone);
  await page.goto(`${base}/admin/notifications`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "phone");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
