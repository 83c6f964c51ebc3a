// The console on a 390 px phone against the real `xpay serve`, its notification worker and a
// merchant endpoint on a real port: every menu entry on the screen (wrapped, not cut after 设置),
// the orders, reports and accounts lists as cards whose first row shows its status, amount and
// actions without scrolling sideways, the other list pages fitting, and an order whose merchant
// refused 13 notifications showing them as one folded entry. At 1440 px the same pages keep their
// tables. Light and dark; screenshots to artifacts/screenshots/admin-narrow-*.png.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { PAGES } from "../src/admin/pages/index.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { nativeCreate, SECRET, signed } from "../test/helpers.ts";
import { openPage, PASSWORD, SHOTS, shots, startConsole, twoWidths } from "./support.ts";

const xc = startConsole("xpay-narrow-e2e-");
const { db, cli } = xc;
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
let darkPhone: BrowserContext;
let base = "";
let refused = ""; // the order whose merchant refused 13 notifications
const shot = shots("admin-narrow");
const now = () => Math.floor(Date.now() / 1000);
const shop = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("success") });
const down = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("<html><body>502 Bad Gateway</body></html>", { status: 502 }) });
const NAV = PAGES.flatMap((p) => (p.nav ? [p.nav] : [])).sort((a, b) => a.order - b.order).map((n) => n.path);

async function create(money: string, o: Record<string, string> = {}): Promise<string> {
  const r = await xc.post<{ code: number; data: { trade_no: string } }>("/xpay/order/create", nativeCreate({ money, notify_url: `http://127.0.0.1:${shop.port}/n`, ...o }));
  expect(r.code).toBe(200);
  return r.data.trade_no;
}
const pay = (cents: number, payType = "alipay", code = "main") =>
  xc.post<{ data: { outcome: string } }>("/api/report/1001/pc", signed({ amount: cents, pay_type: payType, channel_code: code, timestamp: now() }, SECRET));

/** The worker's first refused attempt, then twelve more like it recorded as later retries (the last gives up). */
async function refuseThirteen(tradeNo: string): Promise<void> {
  const gw = openGateway({ db, baseUrl: "http://127.0.0.1:1" });
  try {
    let n = await gw.store.getNotification(tradeNo);
    for (let i = 0; i < 100 && !n?.attempts_log.length; i++) {
      await Bun.sleep(100);
      n = await gw.store.getNotification(tradeNo);
    }
    const first = n!.attempts_log[0]!;
    expect(first).toMatchObject({ httpStatus: 502, acknowledged: false });
    for (let i = 1; i < 13; i++) {
      const at = first.attemptedAt + i * 1_800_000;
      await gw.store.recordNotificationAttempt(n!.id, {
        attempt: { attemptedAt: at, durationMs: 3 + i, httpStatus: first.httpStatus, body: first.body, error: first.error, acknowledged: false },
        status: i === 12 ? "failed" : "pending", nextAttemptAt: at + 1_800_000,
      });
    }
  } finally {
    gw.store.close();
  }
}

beforeAll(async () => {
  const gw = openGateway({ db, baseUrl: "http://127.0.0.1:1" });
  await gw.store.addMerchant({ pid: 1001, name: "示例商城（华东一店）", secret: SECRET, now: now() });
  await gw.store.addMerchant({ pid: 1002, name: "会员订阅", secret: "b".repeat(32), now: now() });
  await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "main", name: "支付宝 主账户（店长个人）", qrcode: "https://qr.alipay.com/fkx01", dayAmount: 500000, now: now() });
  await gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx", name: "微信 收款码", qrcode: "wxp://f2f0", now: now() });
  gw.store.close();
  cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  cli(["settings", "set", "public_rate_limit", "0"]);
  ({ base } = await xc.serve());
  // A failing merchant endpoint first, so the refused order is the oldest row, then a shop's day.
  refused = await create("128.00", { name: "年度会员（自动续费）", notify_url: `http://127.0.0.1:${down.port}/notify`, out_trade_no: "SO-REFUSED-0001" });
  expect((await pay(12800)).data.outcome).toBe("matched");
  await refuseThirteen(refused);
  for (const [i, money] of ["12.00", "30.00", "1888.80", "5.20"].entries()) {
    await create(money, { name: ["月卡 VIP", "电子书《深入 SQLite》", "企业版授权（三年）", "咖啡豆 500g"][i]!, out_trade_no: `SO2026112700${i}` });
    expect((await pay(Math.round(Number(money) * 100))).data.outcome).toBe("matched");
  }
  await create("45.00", { name: "季度会员", pay_type: "wxpay" });
  await create("25.00", { name: "云盘扩容 1TB", out_trade_no: "SO-a-very-long-merchant-order-number-0000000001" });
  expect((await pay(4242)).data.outcome).toBe("unmatched"); // money nobody ordered
  browser = await xc.launch();
  ({ desktop, phone } = await twoWidths(browser, base));
  ({ phone: darkPhone } = await twoWidths(browser, base, { colorScheme: "dark" }));
}, 120_000);

afterAll(async () => {
  shop.stop(true);
  down.stop(true);
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-narrow-*.png`);
});

/** How far the document is wider than the window (0 when nothing scrolls sideways). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The element is wholly inside the window once its row is scrolled into view. */
async function onScreen(page: Page, what: string, el: Locator): Promise<void> {
  await el.scrollIntoViewIfNeeded();
  const box = await el.boundingBox();
  const { w, h } = await page.evaluate(() => ({ w: window.innerWidth, h: window.innerHeight }));
  expect({ what, box: box !== null }).toEqual({ what, box: true });
  expect({ what, inside: box!.x >= 0 && box!.y >= 0 && box!.x + box!.width <= w && box!.y + box!.height <= h }).toEqual({ what, inside: true });
}

describe("the menu", () => {
  for (const [width, lang] of [[390, "zh"], [390, "en"], [1440, "zh"]] as const) {
    test(`${width} px, ${lang}: every entry is on the first screen, none cut off`, async () => {
      const { page, problems } = await openPage(width === 390 ? phone : desktop);
      await page.goto(`${base}/admin/lang/${lang}?next=%2Fadmin%2Forders`);
      await page.waitForURL(`${base}/admin/orders`);
      await page.context().clearCookies({ name: "xpay_lang" }); // the other tests read Chinese; this page keeps its language
      const links = page.locator("nav.sidenav a");
      expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(NAV);
      for (const href of NAV) {
        const box = (await page.locator(`nav.sidenav a[href="${href}"]`).boundingBox())!;
        expect({ href, inside: box.x >= 0 && box.x + box.width <= width && box.y + box.height <= 844 }).toEqual({ href, inside: true });
      }
      expect(await page.evaluate(() => Array.from(document.querySelectorAll("nav.sidenav, nav.sidenav ul")).every((e) => e.scrollWidth <= e.clientWidth))).toBe(true);
      if (width === 390) await shot(page, `menu-${lang}`, false);
      await page.click('nav.sidenav a[href="/admin/sessions"]'); // the last entry, reachable by a tap
      await page.waitForURL(`${base}/admin/sessions`);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
  }
});

describe("lists as cards at 390 px, tables at 1440 px", () => {
  const lists = [
    { path: "/admin/orders", row: "#orders-table tbody tr[data-trade-no]", status: "[data-status]", amount: "td[data-cell=amount]", actions: ['a[href^="/admin/orders/"]', 'input[name="trade_no"]'] },
    { path: "/admin/reports", row: "#reports-table tbody tr[data-report]", status: "[data-outcome]", amount: "td[data-cell=amount]", actions: ['a[href^="/admin/reports/"]'] },
    { path: "/admin/accounts", row: "#accounts-table tbody tr[data-account]", status: "td.c-badge .tag", amount: "td[data-today]", actions: ["td.c-actions a.btn", 'td.c-actions a[href$="/test-pay"]', "td.c-actions button"] },
  ];
  for (const l of lists) {
    test(`390: ${l.path} fits; the first row's status, amount and actions are on the screen`, async () => {
      const { page, problems } = await openPage(phone);
      await page.goto(`${base}${l.path}`);
      expect({ path: l.path, overflow: await overflow(page) }).toEqual({ path: l.path, overflow: 0 });
      const row = page.locator(l.row).first();
      expect(await row.evaluate((r) => getComputedStyle(r).display)).toBe("flex"); // a card, not a table row
      await onScreen(page, `${l.path} status`, row.locator(l.status).first());
      await onScreen(page, `${l.path} amount`, row.locator(l.amount));
      for (const a of l.actions) await onScreen(page, `${l.path} ${a}`, row.locator(a).first());
      await shot(page, `phone${l.path.replaceAll("/", "-")}`);
      await shot(page, `phone${l.path.replaceAll("/", "-")}-first-screen`, false);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);

    test(`1440: ${l.path} is still a table`, async () => {
      const { page, problems } = await openPage(desktop);
      await page.goto(`${base}${l.path}`);
      const row = page.locator(l.row).first();
      expect(await row.evaluate((r) => getComputedStyle(r).display)).toBe("table-row");
      expect(await page.locator(`${l.row.split(" ")[0]} thead`).isVisible()).toBe(true);
      await shot(page, `desktop${l.path.replaceAll("/", "-")}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
  }

  test("390: the other list pages fit, each card inside the window", async () => {
    const { page, problems } = await openPage(phone);
    for (const path of ["/admin/merchants", "/admin/notifications", "/admin/clients", "/admin/rules", "/admin/alerts", "/admin/backups", "/admin/operators", "/admin/audit", "/admin/sessions"]) {
      await page.goto(`${base}${path}`);
      expect({ path, overflow: await overflow(page) }).toEqual({ path, overflow: 0 });
      const wide = await page.evaluate(() => Array.from(document.querySelectorAll(".table-wrap")).filter((w) => w.scrollWidth > w.clientWidth).map((w) => w.querySelector("table")?.id));
      expect({ path, scrolling: wide }).toEqual({ path, scrolling: [] });
      await shot(page, `phone${path.replaceAll("/", "-")}`);
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  test("390, dark: the orders cards and the order page read on the dark palette", async () => {
    const { page, problems } = await openPage(darkPhone);
    await page.goto(`${base}/admin/orders`);
    expect(await overflow(page)).toBe(0);
    await page.locator("#orders-table").scrollIntoViewIfNeeded();
    await shot(page, "dark-orders", false);
    await page.goto(`${base}/admin/orders/${refused}`);
    await page.locator('li[data-kind="notify_failures"]').scrollIntoViewIfNeeded();
    await shot(page, "dark-order-timeline", false);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describe("the order page", () => {
  for (const width of [390, 1440]) {
    test(`${width}: 13 refused notifications are one folded entry; the page fits`, async () => {
      const { page, problems } = await openPage(width === 390 ? phone : desktop);
      await page.goto(`${base}/admin/orders/${refused}`);
      expect(await overflow(page)).toBe(0);
      const folds = page.locator('#timeline li[data-kind="notify_failures"]');
      expect(await folds.count()).toBe(1);
      expect(await page.locator('#timeline li[data-kind="notify_attempt"]').count()).toBe(0);
      expect(await folds.locator(".ev-title").textContent()).toMatch(/^通知失败 13 次，最近一次 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(await folds.locator(".ev-folded li").count()).toBe(13);
      expect(await folds.locator(".ev-folded li").first().isVisible()).toBe(false); // folded until asked
      await folds.locator(".ev-folded summary").click();
      expect(await folds.locator(".ev-folded li").nth(12).isVisible()).toBe(true);
      if (width === 390) {
        await onScreen(page, "status", page.locator("#order-fields [data-status]"));
        await onScreen(page, "resend", page.locator("#order-actions button").first());
      }
      expect(await overflow(page)).toBe(0);
      await shot(page, `${width === 390 ? "phone" : "desktop"}-order`);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
