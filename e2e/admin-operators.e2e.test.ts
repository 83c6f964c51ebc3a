// /admin/operators in a real browser against `xpay serve` (issue 28): an operator added (a
// mismatched repeat refused under its field first), its password reset, removed after the
// confirmation; 390 px fits. Screenshots: artifacts/screenshots/admin-operators-*.png.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { openPage, PASSWORD, SHOTS, shots, startConsole, twoWidths } from "./support.ts";

const xc = startConsole("xpay-operators-e2e-");
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
  console.log(`screenshots: ${SHOTS}/admin-operators-*.png`);
});

const shot = shots("admin-operators");

test("1440: add, reset, remove", async () => {
  const { page, problems } = await openPage(desktop);
  await page.goto(`${base}/admin/operators`);
  await page.fill("#operator-add #f-name", "bob");
  await page.fill("#operator-add #f-password", "a long enough pass");
  await page.fill("#operator-add #f-repeat", "something else");
  await page.click("#operator-add-submit");
  expect(await page.textContent("#operator-add .field-error")).toContain("两次输入的密码不一致");
  await page.fill("#operator-add #f-password", "a long enough pass");
  await page.fill("#operator-add #f-repeat", "a long enough pass");
  await page.click("#operator-add-submit");
  await page.waitForURL(/done=added/);
  await page.locator('#operators-table tr[data-operator="bob"] a', { hasText: "重设密码" }).click();
  await page.fill("#operator-reset #f-password", "another long pass");
  await page.fill("#operator-reset #f-repeat", "another long pass");
  await shot(page, "reset");
  await page.click("#operator-reset-submit");
  await page.waitForURL(/done=reset/);
  page.once("dialog", (d) => d.accept());
  await page.locator('#operators-table tr[data-operator="bob"] button', { hasText: "删除" }).click();
  await page.waitForURL(/done=removed/);
  expect(await page.locator('#operators-table tr[data-operator="bob"]').count()).toBe(0);
  await shot(page, "removed");
  expect(problems).toEqual(["422 /admin/operators"]);
  await page.close();
}, 60_000);

test("390: the page fits", async () => {
  const { page, problems } = await openPage(phone);
  await page.goto(`${base}/admin/operators`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "phone");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
