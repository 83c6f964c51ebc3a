// /admin/alerts in a real browser against `xpay serve` (issue 28): a webhook channel added from
// the console (its secret shown once), a test message reaching a loopback receiver, the history
// row, then removed after the confirmation; the page at 390 px fits and the menu reaches 告警.
// Screenshots: artifacts/screenshots/admin-alerts-*.png.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { openPage, PASSWORD, SHOTS, shots, startConsole, twoWidths } from "./support.ts";

const xc = startConsole("xpay-alerts-e2e-");
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
let base = "";
const got: string[] = [];
const hook = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => (got.push(await req.text()), new Response("ok")) });

beforeAll(async () => {
  xc.cli(["migrate"]);
  xc.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  ({ base } = await xc.serve());
  browser = await xc.launch();
  ({ desktop, phone } = await twoWidths(browser, base));
}, 90_000);

afterAll(async () => {
  hook.stop(true);
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-alerts-*.png`);
});

const shot = shots("admin-alerts");

test("1440: add a webhook, send a test, see it in the history, remove it", async () => {
  const { page, problems } = await openPage(desktop);
  await page.goto(`${base}/admin`);
  await page.click('nav.sidenav a[href="/admin/alerts"]');
  await page.fill("#f-name", "ops");
  await page.fill("#f-o_url", `http://127.0.0.1:${hook.port}/in`);
  await page.click("#alert-add-submit");
  expect(await page.textContent("#alerts-notice")).toContain("只显示这一次");
  await page.locator('#alerts-table tr[data-channel="ops"] button', { hasText: "发送测试" }).click();
  await page.waitForSelector("#alerts-notice");
  expect(await page.textContent("#alerts-notice")).toContain("测试消息已发送到 ops");
  expect(got.length).toBe(1);
  expect(await page.textContent("#alerts-history")).toContain("已发送");
  await shot(page, "tested");
  page.once("dialog", (d) => d.accept());
  await page.locator('#alerts-table tr[data-channel="ops"] button', { hasText: "删除" }).click();
  await page.waitForURL(/done=removed/);
  expect(await page.textContent("#alerts-table")).toContain("还没有告警通道");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

test("390: the page fits", async () => {
  const { page, problems } = await openPage(phone);
  await page.goto(`${base}/admin/alerts?type=email`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "phone");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
