// Issue 28 (items 1, 2, 4, 8 and the "also" list) in a real browser against `xpay serve`, at 1440
// and 390 px: a week of seeded orders, one phone beating and one silent for an hour, two payments
// with no order under twelve forwarded notices that are no payment, a timed-out order confirmed by
// hand 99 h after its expiry, and a notification that failed 13 times. The offline chip is on the
// first screen and leads to the phone; the clients panel comes before the charts and the long
// lists; the notices are folded; the texts say what is true; a 404 keeps the menu; a new gateway
// shows its first steps. Screenshots: artifacts/screenshots/i28a-*.png (set XPAY_SHOTS_DIR to keep them elsewhere).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { seedOrders } from "../bench/seed-orders.ts";
import { nativeCreate, PUBLIC_TRADE_NO, SECRET, signed } from "../test/helpers.ts";
import { login, openPage, PASSWORD, startConsole, SHOTS } from "./support.ts";

const OUT = process.env.XPAY_SHOTS_DIR ?? SHOTS;
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: join(OUT, `i28a-${name}.png`), fullPage });

const xc = startConsole("xpay-attention-e2e-");
const fresh = startConsole("xpay-first-steps-e2e-");
let browser: Browser;
let base = "";
let freshBase = "";
let silentId = 0;
let confirmed = "";
let failing = "";

beforeAll(async () => {
  const now = Math.floor(Date.now() / 1000);
  await seedOrders(xc.db, { orders: 400, days: 7, merchants: 2, accounts: 3, now: now - 3600 });
  const raw = new Database(xc.db);
  raw.run("UPDATE channel_accounts SET pid = 1001 WHERE code = 'acc0'");
  // Reports the seed made are old history; today's are below.
  raw.run("DELETE FROM reports WHERE outcome = 'unmatched'");
  raw.run("INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at) VALUES ('phone', 1001, 'Redmi 备用机', 1, '', ?)", [now - 3700]);
  silentId = Number((raw.query("SELECT id FROM clients WHERE name = 'Redmi 备用机'").get() as { id: number }).id);
  raw.close();
  xc.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  xc.cli(["settings", "set", "public_rate_limit", "0"]);
  ({ base } = await xc.serve());
  const ts = () => Math.floor(Date.now() / 1000);
  const beat = await fetch(`${base}/api/report/1001/heart?${new URLSearchParams(signed({ client_name: "Xiaomi 13 收款机", channel_id: 1, timestamp: ts() }, SECRET))}`);
  expect(beat.status).toBe(200);
  // ¥200 and ¥66.60 with no order, then twelve ant-forest notices (no amount).
  for (const amount of [20000, 6660]) {
    const r = await xc.post<{ data: { outcome: string } }>("/api/report/1001/pc", signed({ amount, pay_type: "alipay", channel_code: "acc0", timestamp: ts() }, SECRET));
    expect(r.data.outcome).toBe("unmatched");
  }
  for (let i = 0; i < 12; i++) {
    const content = JSON.stringify({ from: "com.eg.android.AlipayGphone", package_name: "com.eg.android.AlipayGphone", title: "蚂蚁森林", msg: `你收取了好友 ${i + 3}g 能量`, receive_time: "2026-11-22 13:14:15" });
    const r = await xc.post<{ data: { outcome: string } }>("/api/report/1001", signed({ from: "shop-phone", content, timestamp: ts() }, SECRET));
    expect(r.data.outcome).toBe("unmatched");
  }
  // A timed-out order (expired 99 h ago) confirmed by hand now; a paid order whose notification failed 13 times.
  const a = await xc.post("/xpay/order/create", nativeCreate({ money: "18.80", pay_type: "alipay" }));
  confirmed = a.data.trade_no!;
  const b = await xc.post("/xpay/order/create", nativeCreate({ money: "23.30", pay_type: "alipay", notify_url: "http://127.0.0.1:9/n" }));
  failing = b.data.trade_no!;
  const db = new Database(xc.db);
  db.run(`UPDATE orders SET created_at = ?, expire_time = ?, status = 4 WHERE ${PUBLIC_TRADE_NO} = ?`, [now - 100 * 3600, now - 99 * 3600, confirmed]);
  db.close();
  xc.cli(["order", "confirm", confirmed, "--reason", "支付宝账单 99 小时前的付款"]);
  const cents = Math.round(Number(b.data.trade_amount) * 100);
  const paid = await xc.post<{ data: { outcome: string } }>("/api/report/1001/pc", signed({ amount: cents, pay_type: "alipay", channel_code: "acc0", timestamp: ts() }, SECRET));
  expect(paid.data.outcome).toBe("matched");
  await Bun.sleep(300); // the worker's first attempt, then the state of 13 failures
  const db2 = new Database(xc.db);
  db2.run(`UPDATE notifications SET attempts = 13, status = 'pending', next_attempt_at = ? WHERE ${PUBLIC_TRADE_NO} = ?`, [(now + 3600) * 1000, failing]);
  db2.close();
  // A gateway just set up: an operator and nothing else.
  fresh.cli(["migrate"]);
  fresh.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  ({ base: freshBase } = await fresh.serve());
  browser = await xc.launch();
}, 120_000);

afterAll(async () => {
  await xc.stop();
  await fresh.stop();
  console.log(`screenshots: ${OUT}/i28a-*.png`);
});

for (const [width, height] of [[1440, 900], [390, 844]] as const) {
  describe(`at ${width} px`, () => {
    test("the offline chip is on the first screen and opens the phone; the clients panel comes before the charts and lists", async () => {
      const context = await browser.newContext({ viewport: { width, height }, locale: "zh-CN" });
      const { page, problems } = await openPage(context);
      await login(page, base);
      const chip = page.locator("#chip-offline");
      expect((await chip.textContent())?.trim()).toBe("1 台手机离线");
      const box = (await chip.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      const top = async (sel: string) => (await page.locator(sel).first().boundingBox())!.y;
      expect(await top("#clients")).toBeLessThan(await top(".dash-chart-box"));
      expect(await top("#clients")).toBeLessThan(await top("#attention"));
      expect(await top("#clients")).toBeLessThan(width > 500 ? 900 : 1400);
      // Money with no order: both payments listed, and the chip counts them only.
      const money = await page.$$eval("#att-unmatched tbody tr td.num", (tds) => tds.map((td) => td.textContent));
      expect(money).toEqual(["66.60", "200.00"]);
      expect((await page.textContent('a[href="#att-unmatched"] b'))?.trim()).toBe("2");
      // The notices: folded, opened on a click.
      expect(await page.locator("#att-not-payments").getAttribute("open")).toBeNull();
      expect(await page.isVisible("#att-not-payments ul")).toBe(false);
      expect((await page.textContent("#att-not-payments summary"))?.replace(/\s+/g, " ").trim()).toBe("不是付款的消息 10+");
      // The 补单 99 h after the expiry is not a late payment.
      expect(await page.locator(`#att-late a[href="/admin/orders/${confirmed}"]`).count()).toBe(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `dashboard-${width}-top`, false);
      await page.click("#att-not-payments summary");
      expect(await page.isVisible("#att-not-payments ul")).toBe(true);
      await shot(page, `dashboard-${width}`);
      for (const id of ["clients", "att-unmatched", "att-not-payments"]) {
        await page.evaluate((sel) => window.scrollTo(0, document.getElementById(sel)!.getBoundingClientRect().top + window.scrollY - 120), id);
        await shot(page, `dashboard-${width}-${id}`, false);
      }
      await chip.click();
      await page.waitForURL(`${base}/admin/clients/${silentId}`);
      await page.goto(`${base}/admin`);
      await page.click('#clients-table a:text("Xiaomi 13 收款机")');
      await page.waitForURL(/\/admin\/clients\/\d+$/);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    test("orders and merchants say what is true; a 404 keeps the menu", async () => {
      const context = await browser.newContext({ viewport: { width, height }, locale: "zh-CN" });
      const { page, problems } = await openPage(context, true);
      await login(page, base);
      await page.goto(`${base}/admin/orders/${confirmed}`);
      expect(await page.textContent("#order-view")).not.toContain("超时后到账");
      await page.goto(`${base}/admin/orders/${failing}`);
      expect(await page.textContent("#notify-state")).toContain("失败 13 次");
      expect(await page.textContent("#notify-state")).toContain("下次重试");
      await shot(page, `order-${width}`, false);
      await page.goto(`${base}/admin/merchants`);
      expect((await page.textContent('tr[data-pid="1001"] [data-method="GET"]'))?.replace(/\s+/g, " ").trim()).toBe("GET 易支付 V1 · 易支付 V2 · V免签");
      await shot(page, `merchants-${width}`, false);
      const res = await page.goto(`${base}/admin/no-such-page`);
      expect(res?.status()).toBe(404);
      expect(await page.locator("nav.sidenav a[href='/admin/orders']").count()).toBe(1);
      await shot(page, `404-${width}`, false);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    test("a new gateway shows its first steps, each linked", async () => {
      const context = await browser.newContext({ viewport: { width, height }, locale: "zh-CN" });
      const { page, problems } = await openPage(context);
      await login(page, freshBase);
      const steps = await page.$$eval("#first-steps li a", (as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
      expect(steps).toEqual([
        ["添加收款账户", "/admin/accounts/new"], ["添加手机", "/admin/clients/setup"], ["添加商户", "/admin/merchants#merchant-add"], ["完成一笔测试支付", "/admin/orders"],
      ]);
      const box = (await page.locator("#first-steps").boundingBox())!;
      expect(box.y).toBeLessThan(height);
      await shot(page, `first-steps-${width}`, false);
      await page.click("#step-account a");
      await page.waitForURL(`${freshBase}/admin/accounts/new`);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);
  });
}
