// /admin/rules in a real browser against `xpay serve` (issue 28): a rule tried (checks shown,
// nothing saved), added, listed, removed after the confirmation; 390 px fits.
// Screenshots: artifacts/screenshots/admin-rules-*.png.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { openPage, PASSWORD, SHOTS, shots, startConsole, twoWidths } from "./support.ts";

const xc = startConsole("xpay-rules-e2e-");
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
let base = "";

beforeAll(async () => {
  xc.cli(["migrate"]);
  xc.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  ({ base } = await xc.serve());
  browser = await xc.launch();
  ({ desktop, phone } = await twoWidths(browser, base));
}, 90_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-rules-*.png`);
});

const shot = shots("admin-rules");

test("1440: try a rule, add it, remove it", async () => {
  const { page, problems } = await openPage(desktop);
  await page.goto(`${base}/admin/rules`);
  await page.fill("#f-package", "com.tencent.mm");
  await page.fill("#f-titles", "微信支付\n微信收款助手");
  await page.fill("#f-text", "^收款到账(?<amount>\\d+(?:\\.\\d{1,2})?)元，来自.{1,20}$");
  await page.selectOption("#f-pay_type", "wxpay");
  await page.click("#rules-try");
  expect(await page.textContent("#rules-test")).toContain("检查通过");
  await shot(page, "tried");
  await page.click("#rules-add");
  await page.waitForURL(/done=added/);
  expect(await page.textContent("#rules-table")).toContain("微信支付 | 微信收款助手");
  await shot(page, "added");
  page.once("dialog", (d) => d.accept());
  await page.locator("#rules-table button", { hasText: "删除" }).click();
  await page.waitForURL(/done=removed/);
  expect(await page.textContent("#rules-table")).toContain("还没有自己的规则");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

test("390: the page fits", async () => {
  const { page, problems } = await openPage(phone);
  await page.goto(`${base}/admin/rules`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "phone");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
