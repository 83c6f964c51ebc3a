// The console dashboard in a real browser (Debian chromium through playwright-core) against the
// real `xpay serve` process: 30 days of history written straight into the tables (as
// bench/seed-orders.ts does) so the charts have something to draw, then today's payments through
// the HTTP routes (native create, the report API) and a phone's heartbeat. The uPlot canvases must
// render with a size under the strict CSP, the figures must be the ones `xpay stats` prints, and
// the page must fit a phone. Screenshots: artifacts/screenshots/admin-dashboard-*.png, and the
// one for the operator guide, docs/images/console-dashboard.png (1280x800).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { seedOrders } from "../bench/seed-orders.ts";
import { nativeCreate, SECRET, signed } from "../test/helpers.ts";
import { docShot, login as loginAt, openPage, PASSWORD, SHOTS, shots, startConsole } from "./support.ts";

const xc = startConsole("xpay-dash-e2e-");
const { db, cli, post } = xc;
let browser: Browser;
let base = "";

beforeAll(async () => {
  const now = Math.floor(Date.now() / 1000);
  // History: 3 000 orders over 30 days, two merchants (1001 has the test secret), three accounts.
  await seedOrders(db, { orders: 3000, days: 30, merchants: 2, accounts: 3, now: now - 3600 });
  const raw = new Database(db);
  raw.run("UPDATE merchants SET name = '示例商城' WHERE pid = 1001");
  raw.run("UPDATE merchants SET name = '会员订阅' WHERE pid = 1002");
  // The phone below reports with 1001's AppSecret, which pays only on 1001's own accounts (issue 27 item 1).
  raw.run("UPDATE channel_accounts SET pid = 1001 WHERE code = 'acc0'");
  // A phone that went quiet an hour ago (the live one beats through the API below).
  raw.run("INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at) VALUES ('phone', 1001, 'Redmi 备用机', 2, '', ?)", [now - 3700]);
  raw.close();
  cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  cli(["settings", "set", "public_rate_limit", "0"]);
  ({ base } = await xc.serve());
  // Today's payments through the routes: create, then the phone's amount report for each.
  for (const money of ["12.00", "30.00", "88.80", "5.20"]) {
    const created = await post("/xpay/order/create", nativeCreate({ money, pay_type: "alipay" }));
    expect(created.code).toBe(200);
    const cents = Math.round(Number(created.data.trade_amount) * 100);
    const paid = await post("/api/report/1001/pc", signed({ amount: cents, pay_type: "alipay", channel_code: "acc0", timestamp: Math.floor(Date.now() / 1000) }, SECRET));
    expect(paid.data.outcome).toBe("matched");
  }
  // Alipay account #1 has taken 88 % of a daily limit set just above today's takings.
  const today = JSON.parse(cli(["stats", "--days", "1", "--by", "account", "--json"])).rows.find((r: { key: string }) => r.key === "1");
  cli(["channel", "edit", "1", "--day", (Math.ceil(today.paid_cents / 0.88) / 100).toFixed(2)]); // yuan
  const beat = await fetch(`${base}/api/report/1001/heart?${new URLSearchParams(signed({ client_name: "Xiaomi 13 收款机", channel_id: 1, timestamp: Math.floor(Date.now() / 1000) }, SECRET))}`);
  expect(beat.status).toBe(200);
  browser = await xc.launch();
}, 90_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-dashboard-*.png, ${SHOTS}/console-dashboard.png (docs/images/ with XPAY_DOC_SHOTS=1)`);
});

const shot = shots("admin-dashboard");
const login = (page: Page) => loginAt(page, base);

/** Width and height of each chart's uPlot canvas (0 when it is missing). */
const canvases = (page: Page) =>
  page.$$eval(".dash-chart", (els) => els.map((el) => {
    const c = el.querySelector("canvas");
    return c ? [c.getBoundingClientRect().width, c.getBoundingClientRect().height] : [0, 0];
  }));

describe("dashboard in chromium", () => {
  let desktop: BrowserContext;

  test("after a few payments: the figures of xpay stats, both charts drawn, the attention list and the clients", async () => {
    desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
    const { page, problems } = await openPage(desktop);
    await login(page);
    await page.waitForSelector(".dash-chart canvas");
    const sizes = await canvases(page);
    expect(sizes).toHaveLength(2);
    for (const [w, h] of sizes) {
      expect(w).toBeGreaterThan(200);
      expect(h).toBeGreaterThan(100);
    }
    // Bars were drawn: some pixel of the daily chart is the bars' blue.
    const painted = await page.$eval("#chart-days canvas", (c) => {
      const ctx = (c as HTMLCanvasElement).getContext("2d")!;
      const d = ctx.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height).data;
      let blue = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 2]! > 150 && d[i]! < 120 && d[i + 3]! > 0) blue++;
      return blue;
    });
    expect(painted).toBeGreaterThan(500);
    const stats = JSON.parse(cli(["stats", "--days", "30", "--json"]));
    // The same figure, grouped as the console writes amounts (format.ts): 330,659.98.
    const grouped = (yuan: string) => yuan.replace(/\B(?=(\d{3})+\.)/g, ",");
    expect(await page.textContent("#period-last30 .dash-value")).toBe(grouped(stats.total.paid_yuan));
    const today = JSON.parse(cli(["stats", "--days", "1", "--json"]));
    expect(await page.textContent("#period-today .dash-value")).toBe(grouped(today.total.paid_yuan));
    // The reports count as beats of their client too; the quiet phone is offline and listed first.
    const clients = await page.$$eval("#clients-table tbody tr", (rows) => rows.map((r) => [(r as HTMLTableRowElement).cells[0]!.textContent, r.querySelector(".tag")!.textContent]));
    expect(clients[0]).toEqual(["Redmi 备用机", "离线"]);
    expect(clients).toContainEqual(["Xiaomi 13 收款机", "在线"]);
    expect(await page.locator("#att-unmatched tbody tr").count()).toBeGreaterThan(0);
    expect(await page.textContent("#limits-table tbody tr td:last-child")).toMatch(/^\s*8[78]%$/);
    // The legend follows the cursor: the hovered bar's day and amount.
    const over = page.locator("#chart-days .u-over");
    const b = (await over.boundingBox())!;
    await over.hover({ position: { x: b.width - 4, y: b.height / 2 } }); // scrolls it into view first
    await page.waitForFunction(() => /\d{4}-\d\d-\d\d/.test(document.querySelector("#chart-days .u-legend")?.textContent ?? ""));
    expect(await page.textContent("#chart-days .u-legend")).toContain(stats.rows.at(-1).key);
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await docShot(page, "dashboard");
    await shot(page, "zh");
    await page.click("#chart-hours summary");
    expect(await page.isVisible("#chart-hours .dash-data table")).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("English, and a phone: nothing wider than the screen, the charts follow the width", async () => {
    const { page, problems } = await openPage(desktop);
    await page.goto(`${base}/admin`);
    await page.click("#lang-switch");
    await page.waitForURL(`${base}/admin`);
    expect(await page.textContent("#attention h2")).toBe("Needs attention");
    await page.waitForSelector(".dash-chart canvas");
    await shot(page, "en");
    await page.click("#lang-switch");
    await page.waitForURL(`${base}/admin`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/admin`);
    await page.waitForSelector(".dash-chart canvas");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const [w] of await canvases(page)) {
      expect(w).toBeGreaterThan(200);
      expect(w).toBeLessThanOrEqual(390);
    }
    await shot(page, "phone");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
