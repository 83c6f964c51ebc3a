// Dark mode (issue 28): with the system set to dark (prefers-color-scheme), the console's pages
// use the dark palette; the body text and the muted text keep at least 4.5:1 against their
// background. Screenshots at 1440 and 390 px: artifacts/screenshots/admin-dark-*.png.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { nativeCreate, SECRET } from "../test/helpers.ts";
import { login, openPage, PASSWORD, SHOTS, shots, startConsole } from "./support.ts";

const xc = startConsole("xpay-dark-e2e-");
let browser: Browser;
let dark: BrowserContext;
let darkPhone: BrowserContext;
let light: BrowserContext;
let base = "";

beforeAll(async () => {
  xc.cli(["migrate"]);
  xc.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  xc.cli(["merchant", "add", "--name", "示例商城", "--pid", "1001", "--secret", SECRET]);
  xc.cli(["channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "ali", "--name", "支付宝", "--qrcode", "https://qr.alipay.com/fkx1"]);
  xc.cli(["settings", "set", "public_rate_limit", "0"]);
  ({ base } = await xc.serve());
  for (const money of ["12.00", "30.00"]) {
    const created = await xc.post("/xpay/order/create", nativeCreate({ money }));
    xc.cli(["simulate-pay", String(created.data.trade_no)]);
  }
  browser = await xc.launch();
  dark = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "zh-CN", colorScheme: "dark" });
  darkPhone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", colorScheme: "dark", isMobile: true, hasTouch: true });
  light = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "zh-CN", colorScheme: "light" });
  for (const c of [dark, darkPhone, light]) {
    const { page } = await openPage(c);
    await login(page, base);
    await page.close();
  }
}, 90_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-dark-*.png`);
});

const shot = shots("admin-dark");

/** WCAG contrast of two computed `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g)!.slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

const colours = (page: import("playwright-core").Page) =>
  page.evaluate(() => {
    const cs = (sel: string) => getComputedStyle(document.querySelector(sel)!);
    return { bg: cs("body").backgroundColor, text: cs("body").color, card: cs(".table-wrap, .card") .backgroundColor, muted: cs(".lead, .muted").color };
  });

test("dark: the palette follows the system, text readable; light stays light", async () => {
  const { page, problems } = await openPage(dark);
  for (const path of ["/admin", "/admin/orders", "/admin/accounts", "/admin/alerts"]) {
    await page.goto(`${base}${path}`);
    const c = await colours(page);
    expect(c.bg).toBe("rgb(17, 20, 24)");
    expect(contrast(c.text, c.bg)).toBeGreaterThan(7);
    expect(contrast(c.muted, c.card)).toBeGreaterThan(4.5);
    await shot(page, path.slice(1).replace(/\//g, "-"));
  }
  expect(problems).toEqual([]);
  const l = await openPage(light);
  await l.page.goto(`${base}/admin`);
  expect((await colours(l.page)).bg).toBe("rgb(244, 245, 247)");
  await l.page.close();
  await page.close();
}, 60_000);

test("dark at 390 px", async () => {
  const { page, problems } = await openPage(darkPhone);
  await page.goto(`${base}/admin/accounts`);
  await shot(page, "phone-accounts");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
