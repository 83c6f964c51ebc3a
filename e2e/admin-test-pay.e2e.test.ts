// 测试支付 in a real browser against the real `xpay serve` (issue 28): the button on an account,
// the amount form (a bad amount refused under the field), the test order's page with its cashier
// opened in a new tab, then the phone's report (signed with the merchant's key, as a monitoring
// app would send it): the status box turns to "已到账并匹配" without a reload. 1440 and 390 px.
// Screenshots: artifacts/screenshots/admin-test-pay-*.png.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { SECRET, signed } from "../test/helpers.ts";
import { openPage, PASSWORD, SHOTS, shots, startConsole, twoWidths } from "./support.ts";

const xc = startConsole("xpay-test-pay-e2e-");
const { cli, post } = xc;
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
let base = "";

beforeAll(async () => {
  cli(["migrate"]);
  cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  cli(["merchant", "add", "--name", "示例商城", "--pid", "1001", "--secret", SECRET]);
  cli(["channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "ali_a", "--name", "支付宝 A", "--qrcode", "https://qr.alipay.com/fkxa"]);
  cli(["channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "ali_b", "--name", "支付宝 B", "--qrcode", "https://qr.alipay.com/fkxb"]);
  cli(["settings", "set", "public_rate_limit", "0"]);
  ({ base } = await xc.serve());
  browser = await xc.launch();
  ({ desktop, phone } = await twoWidths(browser, base));
}, 90_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-test-pay-*.png`);
});

const shot = shots("admin-test-pay");

describe("测试支付 in chromium", () => {
  test("1440: account B's test order, its cashier, the report matching it live", async () => {
    const { page, problems } = await openPage(desktop);
    await page.goto(`${base}/admin/accounts`);
    await page.click('a[data-test-pay="2"]');
    await page.waitForURL(`${base}/admin/accounts/2/test-pay`);
    await page.fill("#f-amount", "0.001");
    await page.click("#test-pay-create");
    expect(await page.textContent("#test-pay-form .field-error")).toContain("金额格式不对");
    await shot(page, "form-error");
    await page.fill("#f-amount", "0.88");
    await page.click("#test-pay-create");
    await page.waitForURL(/\/admin\/accounts\/2\/test-pay\/\w+$/);
    expect(await page.textContent("#test-pay-amount")).toContain("0.88");
    expect(await page.textContent("#test-pay-status")).toContain("等待付款");
    await shot(page, "waiting");
    const [cashier] = await Promise.all([desktop.waitForEvent("page"), page.click("#test-pay-cashier")]);
    await cashier.waitForLoadState();
    expect(new URL(cashier.url()).pathname).toMatch(/^\/pay\//);
    expect(await cashier.content()).toContain("0.88");
    await cashier.close();
    // The receiving phone reports the payment on account B's code.
    const report = await post("/api/report/1001/pc", signed({ amount: 88, pay_type: "alipay", channel_code: "ali_b", timestamp: Math.floor(Date.now() / 1000) }, SECRET));
    expect(report.data.outcome, JSON.stringify(report.data)).toBe("matched");
    await page.waitForSelector("#test-pay-paid", { timeout: 10_000 });
    expect(await page.textContent("#test-pay-status")).toContain("已到账并匹配");
    await shot(page, "paid");
    expect(problems).toEqual(["422 /admin/accounts/2/test-pay"]);
    await page.close();
  }, 60_000);

  test("390: the button in the account page, the order page fits the width", async () => {
    const { page, problems } = await openPage(phone);
    await page.goto(`${base}/admin/accounts/1`);
    await page.click("#account-test-pay");
    await page.waitForURL(`${base}/admin/accounts/1/test-pay`);
    await shot(page, "phone-form");
    await page.click("#test-pay-create");
    await page.waitForURL(/\/admin\/accounts\/1\/test-pay\/\w+$/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await shot(page, "phone-waiting");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
