// The cashier page in a real browser (Debian chromium through playwright-core): the real app on a
// real port, a merchant return_url on a second port. Kept out of test/ so plain `bun test` never
// needs a browser; run it with `npm run test:e2e` (scripts/ci-browser.sh installs chromium in CI).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { ManualClock } from "../src/core/clock.ts";
import { createOrder } from "../src/core/create-order.ts";
import type { Gateway } from "../src/core/gateway.ts";
import { md5Sign } from "../src/protocols/signing.ts";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { nativeCreate, SECRET, signed } from "../test/helpers.ts";
import { launchChromium, SHOTS } from "./support.ts";

const dir = mkdtempSync(join(tmpdir(), "xpay-e2e-"));
const clock = new ManualClock();
let gw: Gateway;
let gateway: ReturnType<typeof Bun.serve>;
let merchantSite: ReturnType<typeof Bun.serve>;
let browser: Browser;
let base = "";

beforeAll(async () => {
  gw = openGateway({ db: join(dir, "xpay.db"), baseUrl: "http://127.0.0.1", clock });
  const app = buildApp(gw);
  gateway = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => app.handle(req) });
  base = `http://127.0.0.1:${gateway.port}`;
  gw.baseUrl = base; // the QR image URL is built from it
  merchantSite = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("<h1 id=shop>merchant return page</h1>", { headers: { "content-type": "text/html" } }) });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: clock.now() });
  await gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: "Alipay A", qrcode: "https://qr.alipay.com/fkx0001", now: clock.now() });
  await gw.store.setSetting("pay_payed_wait_time", "1");
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  gateway?.stop(true);
  merchantSite?.stop(true);
  gw?.store.close();
  rmSync(dir, { recursive: true, force: true }); // the screenshots are in SHOTS, as every browser test's
});

async function create(outTradeNo: string, extra: Record<string, string> = {}) {
  const res = await fetch(`${base}/xpay/order/create`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(nativeCreate({ out_trade_no: outTradeNo, ...extra })) });
  const body = (await res.json()) as { code: number; data: { trade_no: string; trade_amount: string } };
  expect(body.code).toBe(200);
  return body.data;
}

/** Pays the way a payer's phone reports it: an amount report (cents) on the merchant's account. */
async function payByReport(tradeAmountYuan: string): Promise<void> {
  const cents = Math.round(Number(tradeAmountYuan) * 100);
  const report = signed({ amount: cents, pay_type: "alipay", channel_code: "alipay_qr", timestamp: clock.now() });
  const res = await fetch(`${base}/api/report/1001/pc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(report) });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { code: number }).code).toBe(200);
}

async function openPage(tradeNo: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 420, height: 860 } });
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  // Resource failures are checked by URL below (/favicon.ico too, which a browser asks for on its own).
  page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && problems.push(`console: ${m.text()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(`${base}/pay/${tradeNo}`);
  return { page, problems };
}

describe("cashier page in chromium", () => {
  test("pending order: amount, QR and countdown; paid by report; back to the merchant with signed fields", async () => {
    await create("E0"); // holds 10.00 on the account, so the next order must pay 9.99
    const returnUrl = `http://127.0.0.1:${merchantSite.port}/return?from=xpay`;
    const order = await create("E1", { return_url: returnUrl });
    expect(order.trade_amount).toBe("9.99");
    const { page, problems } = await openPage(order.trade_no);

    await page.waitForFunction(() => {
      const img = document.getElementById("qr") as HTMLImageElement | null;
      return !!img && !img.hidden && img.complete && img.naturalWidth > 0;
    });
    expect(await page.textContent("#amount")).toBe("¥9.99");
    expect(await page.textContent("#amount-diff")).toContain("¥9.99");
    expect(await page.textContent("#subject")).toBe("VIP");
    expect(await page.textContent("#state")).toBe("等待支付");
    const countdown = (await page.textContent("#countdown")) ?? "";
    expect(countdown).toMatch(/^1[45]:\d\d$/);
    const shot = join(SHOTS, "cashier-pending.png");
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`screenshot: ${shot}`);

    await payByReport(order.trade_amount);
    await page.waitForURL((u) => u.port === String(merchantSite.port), { timeout: 15_000 });
    const q = Object.fromEntries(new URL(page.url()).searchParams);
    const { sign, from, ...fields } = q;
    expect(from).toBe("xpay");
    expect(fields).toMatchObject({ pid: "1001", trade_no: order.trade_no, out_trade_no: "E1", pay_type: "alipay", amount: "1000", trade_amount: "999", status: "2" });
    expect(sign).toBe(md5Sign(fields, SECRET, ["sign"]));
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  test("expired order: says 订单已超时 and shows no QR", async () => {
    const order = await create("E2");
    clock.advance(901);
    const { page, problems } = await openPage(order.trade_no);
    await page.waitForFunction(() => document.getElementById("state")?.textContent === "订单已超时");
    expect(await page.isHidden("#qr")).toBe(true);
    expect(await page.isHidden("#countdown-line")).toBe(true);
    const shot = join(SHOTS, "cashier-expired.png");
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`screenshot: ${shot}`);
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  test("order without a pay type: the payer picks one, then sees the QR", async () => {
    const merchant = (await gw.store.getMerchant(1001))!;
    const r = await createOrder(gw, merchant, {
      pid: 1001, outTradeNo: "E3", family: "native", payType: "", name: "会员", amount: 500,
      notifyUrl: "", returnUrl: "", param: "", clientip: "", device: "pc", extra: {},
    });
    if (!r.ok) throw new Error(r.reason);
    const { page, problems } = await openPage(r.order.tradeNo);
    await page.click('#pay-types button[data-pay-type="alipay"]');
    await page.waitForFunction(() => (document.getElementById("qr") as HTMLImageElement | null)?.naturalWidth! > 0);
    expect(await page.textContent("#amount")).toBe("¥5.00");
    expect(await page.textContent("#pay-type-text")).toBe("支付宝");
    expect((await gw.store.getOrder(r.order.tradeNo))!.payType).toBe("alipay");
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  test("unknown order: the 404 page", async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${base}/pay/20990101000000000000`);
    expect(res?.status()).toBe(404);
    expect(await page.textContent("#state")).toBe("订单不存在");
    await page.close();
  });
});
