// The orders filter's dates in a real browser at 1440 and 390 px: the quick range 今天 (a plain link,
// resolved by the server in the operator's zone, keeping the merchant chosen) fills the two date
// pickers; 昨天 shows nothing for orders made today; a date typed into the picker narrows the list;
// a reversed range is an inline error. Screenshots: artifacts/screenshots/admin-dates-*.png.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { formatLocal } from "../src/core/time.ts";
import { nativeCreate, SECRET } from "../test/helpers.ts";
import { openPage, PASSWORD, SHOTS, shots, startConsole, twoWidths } from "./support.ts";

const xc = startConsole("xpay-dates-e2e-");
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
let base = "";
const today = () => formatLocal(Date.now(), "Asia/Shanghai").slice(0, 10);

beforeAll(async () => {
  xc.cli(["migrate"]);
  xc.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  xc.cli(["merchant", "add", "--name", "示例商城", "--pid", "1001", "--secret", SECRET]);
  xc.cli(["merchant", "add", "--name", "会员订阅", "--pid", "1002", "--secret", SECRET]);
  xc.cli(["channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "ali", "--name", "支付宝", "--qrcode", "https://qr.alipay.com/fkx1"]);
  xc.cli(["settings", "set", "public_rate_limit", "0"]);
  ({ base } = await xc.serve());
  for (const [pid, money] of [[1001, "12.00"], [1001, "30.00"], [1002, "8.80"]] as const) {
    expect((await xc.post("/xpay/order/create", nativeCreate({ pid, money }))).code).toBe(200);
  }
  browser = await xc.launch();
  ({ desktop, phone } = await twoWidths(browser, base));
}, 90_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-dates-*.png`);
});

const shot = shots("admin-dates");
const rowCount = (page: import("playwright-core").Page) => page.locator("#orders-table tbody tr[data-trade-no]").count();

test("1440: 今天 keeps the merchant and fills the pickers; a picked date narrows; a reversed range is inline", async () => {
  const { page, problems, refusals } = await openPage(desktop, true);
  await page.goto(`${base}/admin/orders`);
  expect(await page.getAttribute("#f-from", "type")).toBe("date");
  expect(await page.getAttribute("#f-from", "placeholder")).toBeNull();
  await page.selectOption("#f-pid", "1001");
  await page.click("#orders-filter button[type=submit]");
  await page.waitForURL(/pid=1001/);
  await page.click('#orders-ranges a[data-range="today"]');
  await page.waitForURL(/range=today/);
  expect(await page.inputValue("#f-from")).toBe(today());
  expect(await page.inputValue("#f-to")).toBe(today());
  expect(await page.inputValue("#f-pid")).toBe("1001");
  expect(await rowCount(page)).toBe(2);
  expect(await page.getAttribute('#orders-ranges a[data-range="today"]', "aria-current")).toBe("true");
  await shot(page, "today");
  await page.click('#orders-ranges a[data-range="yesterday"]');
  await page.waitForURL(/range=yesterday/);
  expect(await rowCount(page)).toBe(0);
  // A date typed into the picker (the browser's own control), then the form sent.
  await page.selectOption("#f-pid", "");
  await page.fill("#f-from", today());
  await page.fill("#f-to", "");
  await page.click("#orders-filter button[type=submit]");
  await page.waitForURL(new RegExp(`from=${today()}`));
  expect(await rowCount(page)).toBe(3);
  await page.fill("#f-to", "2020-01-01");
  await page.click("#orders-filter button[type=submit]");
  await page.waitForSelector("#f-to-error");
  expect(await page.textContent("#f-to-error")).toBe("结束日期不能早于开始日期。");
  await shot(page, "reversed");
  // The other lists with dates: the same pickers and links.
  for (const path of ["/admin/notifications", "/admin/reports", "/admin/audit"]) {
    await page.goto(`${base}${path}`);
    await page.click('a[data-range="7d"]');
    await page.waitForURL(/range=7d/);
    expect(await page.inputValue("#f-to")).toBe(today());
    await shot(page, `7d-${path.split("/")[2]}`);
  }
  expect(problems).toEqual([]);
  expect(refusals).toEqual(["422 /admin/orders"]);
  await page.close();
}, 60_000);

test("390: the pickers and the quick ranges fit; 近 7 天 from the phone", async () => {
  const { page, problems } = await openPage(phone);
  await page.goto(`${base}/admin/orders`);
  await page.click('#orders-ranges a[data-range="7d"]');
  await page.waitForURL(/range=7d/);
  expect(await page.inputValue("#f-to")).toBe(today());
  expect(await rowCount(page)).toBe(3);
  const box = await page.locator("#orders-ranges").boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "phone");
  await page.goto(`${base}/admin/notifications?range=today`);
  expect(await page.inputValue("#f-from")).toBe(today());
  await shot(page, "outbox-phone");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
