// Orders and reports in a real browser (Debian chromium through playwright-core) against the real
// `xpay serve` process, its notification worker and a merchant endpoint on a real port: the orders
// list and its filter (an inline error for a reversed date range), a payment that matched no order (the payer
// paid 0.01 less) assigned to its order from the report's page (the candidate picked, a reason, the
// confirmation), the order then paid with the operator's action in its timeline, and the merchant's
// notification sent again from the order's page, arriving a second time. Screenshots go to
// artifacts/screenshots/admin-orders-*.png and docs/images/console-{orders,order,reports}.png.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { openGateway } from "../src/server/bootstrap.ts";
import { nativeCreate, SECRET, signed } from "../test/helpers.ts";
import { type Receiver, startReceiver } from "../test/notify/receiver.ts";
import { docShot, login, openPage as watchedPage, PASSWORD, SHOTS, shots, startConsole } from "./support.ts";

const xc = startConsole("xpay-orders-e2e-");
const { db, cli } = xc;
let browser: Browser;
let desktop: BrowserContext;
let rx: Receiver;
let base = "";
let shortPaid = ""; // the order whose payer paid 0.01 less
let reportId = 0;

const post = (path: string, body: Record<string, string | number>) =>
  xc.post<{ code: number; data: { trade_no?: string; outcome?: string; report_id: number } }>(path, body);
const now = () => Math.floor(Date.now() / 1000);
const create = async (o: Record<string, string>) => {
  const r = await post("/xpay/order/create", nativeCreate({ notify_url: rx.url, ...o }));
  return r.data?.trade_no as string | undefined;
};
const pay = (cents: number, payType = "alipay") => post("/api/report/1001/pc", signed({ amount: cents, pay_type: payType, channel_code: "main", timestamp: now() }, SECRET));

beforeAll(async () => {
  rx = startReceiver(["success"]);
  const gw = openGateway({ db, baseUrl: "http://127.0.0.1:1" });
  await gw.store.addMerchant({ pid: 1001, name: "示例商城", secret: SECRET, now: now() });
  await gw.store.addMerchant({ pid: 1002, name: "会员订阅", secret: "b".repeat(32), now: now() });
  // 1001's own account: its AppSecret reports pay there, never on a shared one (issue 27 item 1).
  await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "main", name: "支付宝 主账户", qrcode: "https://qr.alipay.com/fkx01", now: now() });
  await gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx", name: "微信 收款码", qrcode: "wxp://f2f0", now: now() });
  gw.store.close();
  cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  cli(["settings", "set", "public_rate_limit", "0"]);
  ({ base } = await xc.serve());
  // A shop's afternoon: paid orders, some still open, one closed, one that could not be created.
  const names = ["年度会员", "月卡 VIP", "电子书《深入 SQLite》", "<script>alert(1)</script>", "咖啡豆 500g", "云盘扩容 1TB"];
  for (const [i, money] of ["12.00", "30.00", "88.80", "5.20", "199.00", "19.90"].entries()) {
    expect(await create({ money, name: names[i]!, out_trade_no: `SO2026112300${i}` })).toBeDefined();
    expect((await pay(Math.round(Number(money) * 100))).data.outcome).toBe("matched");
  }
  await create({ money: "45.00", name: "季度会员", pay_type: "wxpay" });
  const closed = await create({ money: "66.00", name: "礼品卡" });
  cli(["order", "close", closed!]);
  await create({ money: "3.00", name: "QQ 充值", pay_type: "qqpay" }); // no qqpay account: creation fails
  shortPaid = (await create({ money: "10.00", name: "周卡", out_trade_no: "SO20261123010" }))!;
  await create({ money: "25.00", name: "月度会员" });
  const r = await pay(999); // the payer paid 9.99 for the 10.00 order: nothing matches
  expect(r.data.outcome).toBe("unmatched");
  reportId = r.data.report_id;
  await pay(4242); // money nobody ordered
  await fetch(`${base}/api/report/1001/heart?${new URLSearchParams(signed({ client_name: "Xiaomi 13 收款机", channel_id: 1, timestamp: now() }, SECRET))}`);
  await rx.waitFor(6, 15_000); // the worker has notified the six paid orders
  browser = await xc.launch();
  desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
  const page = await desktop.newPage();
  await login(page, base);
  await page.close();
}, 120_000);

afterAll(async () => {
  rx?.stop();
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-orders-*.png, ${SHOTS}/console-{orders,order,reports}.png`);
});

/** A page that records console errors (CSP refusals included) and every answer of 400 and above. */
const openPage = (context: BrowserContext) => watchedPage(context, true);

const shot = shots("admin-orders");
const rows = (page: Page, table: string) => page.locator(`${table} tbody tr[data-trade-no], ${table} tbody tr[data-report]`).count();

describe("orders and reports in chromium", () => {
  test("the orders list, its filter, and a bad date's inline error", async () => {
    const { page, problems, refusals } = await openPage(desktop);
    await page.goto(`${base}/admin/orders`);
    expect(await page.textContent("h1")).toBe("订单");
    expect(await rows(page, "#orders-table")).toBe(11);
    expect(await page.textContent("#orders-table")).toContain("<script>alert(1)</script>"); // shown as text
    await docShot(page, "orders");
    await shot(page, "list");
    await page.selectOption("#f-status", "paid");
    await page.click("#orders-filter button[type=submit]");
    await page.waitForURL(/status=paid/);
    expect(await rows(page, "#orders-table")).toBe(6);
    await page.fill("#f-q", "SO20261123010");
    await page.selectOption("#f-status", "");
    await page.click("#orders-filter button[type=submit]");
    await page.waitForURL(/q=SO20261123010/);
    expect(await page.locator("#orders-table tbody tr").getAttribute("data-trade-no")).toBe(shortPaid);
    await page.fill("#f-q", "");
    // The pickers send dates; an end before the start is the mistake a picker still allows.
    await page.fill("#f-from", "2026-11-23");
    await page.fill("#f-to", "2026-11-01");
    await page.click("#orders-filter button[type=submit]");
    await page.waitForSelector("#f-to-error");
    expect(await page.textContent("#f-to-error")).toBe("结束日期不能早于开始日期。");
    expect(await page.getAttribute("#f-to", "aria-invalid")).toBe("true");
    await shot(page, "filter-error");
    expect(problems).toEqual([]);
    expect(refusals).toEqual(["422 /admin/orders"]);
    await page.close();
  }, 60_000);

  test("an unmatched report assigned to its order from the report's page: the order is paid", async () => {
    const { page, problems, refusals } = await openPage(desktop);
    await page.goto(`${base}/admin/reports`);
    await page.selectOption("#f-outcome", "unmatched");
    await page.click("#reports-filter button[type=submit]");
    await page.waitForURL(/outcome=unmatched/);
    expect(await rows(page, "#reports-table")).toBe(2);
    await page.goto(`${base}/admin/reports`);
    await docShot(page, "reports");
    await shot(page, "reports");
    await page.click(`#reports-table a[href="/admin/reports/${reportId}"]`);
    await page.waitForURL(`${base}/admin/reports/${reportId}`);
    expect(await page.locator("#candidates tbody tr").first().getAttribute("data-trade-no")).toBe(shortPaid);
    await page.click(`#candidates button[data-value="${shortPaid}"]`);
    expect(await page.inputValue("#f-trade_no")).toBe(shortPaid);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("f-reason");
    await page.fill("#f-reason", "付款人少付 0.01 元，已与客户核对支付宝账单");
    await shot(page, "assign");
    page.once("dialog", (d) => void d.accept());
    await page.click("#assign-form button[type=submit]");
    await page.waitForSelector("#assign-done");
    expect(await page.textContent("#assign-done")).toBe(`已分配：订单 ${shortPaid} 已支付，商户通知已排队。`);
    expect(await page.textContent("#report-view .detail-head .tag")).toBe("已匹配");
    await page.click("#report-order");
    await page.waitForURL(`${base}/admin/orders/${shortPaid}`);
    expect(await page.textContent("#order-view .detail-head .tag")).toBe("已支付");
    expect(await page.locator('#timeline li[data-kind="operator"]').textContent()).toContain("付款人少付 0.01 元");
    expect(problems).toEqual([]);
    expect(refusals).toEqual([]);
    await page.close();
  }, 60_000);

  test("the notification sent again from the order's page reaches the merchant a second time", async () => {
    await rx.waitFor(7, 15_000); // the assignment's notification
    const { page, problems, refusals } = await openPage(desktop);
    await page.goto(`${base}/admin/orders/${shortPaid}`);
    expect(await page.locator('#timeline li[data-kind="notify_attempt"]').count()).toBe(1);
    page.once("dialog", (d) => void d.accept());
    await page.click("#order-replay button");
    await page.waitForSelector("#action-done");
    expect(await page.textContent("#action-done")).toBe("通知已重新排队，马上发送。");
    await rx.waitFor(8, 15_000);
    expect(rx.received.at(-1)!.params.trade_no).toBe(shortPaid);
    // The attempt is recorded after the answer; give the worker a moment to write it.
    for (let i = 0; i < 50 && (await page.locator('#timeline li[data-kind="notify_attempt"]').count()) < 2; i++) {
      await Bun.sleep(100);
      await page.reload();
    }
    expect(await page.locator('#timeline li[data-kind="notify_attempt"]').count()).toBe(2);
    await docShot(page, "order");
    await shot(page, "order");
    expect(problems).toEqual([]);
    expect(refusals).toEqual([]);
    await page.close();
  }, 60_000);

  test("English, and a phone-width layout", async () => {
    const { page, problems } = await openPage(desktop);
    await page.goto(`${base}/admin/orders/${shortPaid}`);
    await page.click("#lang-switch");
    await page.waitForURL(`${base}/admin/orders/${shortPaid}`);
    expect(await page.textContent("#order-view h1")).toBe(`Order ${shortPaid}`);
    await shot(page, "order-en");
    await page.click("#lang-switch");
    await page.waitForURL(`${base}/admin/orders/${shortPaid}`);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [["/admin/orders", "phone-list"], [`/admin/orders/${shortPaid}`, "phone-order"], [`/admin/reports/${reportId}`, "phone-report"]] as const) {
      await page.goto(`${base}${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
      await shot(page, name);
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
