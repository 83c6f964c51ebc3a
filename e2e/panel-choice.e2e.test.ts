// A v2board buyer in a real browser (Debian chromium through playwright-core): the panel's
// submit.php link (no `type`) lands on the cashier's choice, with each pay type's name and the
// gateway's own icon; a click shows the cashier of that type. Before xpay offered the choice the
// same link was an HTML error page (HTTP 400).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { ManualClock } from "../src/core/clock.ts";
import type { Gateway } from "../src/core/gateway.ts";
import { buildApp } from "../src/server/app.ts";
import { openGateway } from "../src/server/bootstrap.ts";
import { SECRET } from "../test/helpers.ts";
import { v2boardPayUrl } from "../test/panels/panels.ts";
import { launchChromium, SHOTS } from "./support.ts";

const dir = mkdtempSync(join(tmpdir(), "xpay-e2e-panel-"));
const clock = new ManualClock();
let gw: Gateway;
let gateway: ReturnType<typeof Bun.serve>;
let browser: Browser;
let base = "";

beforeAll(async () => {
  gw = openGateway({ db: join(dir, "xpay.db"), baseUrl: "http://127.0.0.1", clock });
  const app = buildApp(gw);
  gateway = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => app.handle(req) });
  base = `http://127.0.0.1:${gateway.port}`;
  gw.baseUrl = base; // icons and QR images are linked from it
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: clock.now() });
  await gw.store.addChannel({ pid: 0, payType: "alipay", code: "alipay_qr", name: "Alipay A", qrcode: "https://qr.alipay.com/fkx0001", now: clock.now() });
  await gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx_qr", name: "WeChat A", qrcode: "wxp://f2f0abc", now: clock.now() });
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  gateway?.stop(true);
  gw?.store.close();
  rmSync(dir, { recursive: true, force: true }); // the screenshots are in SHOTS
});

describe("v2board link in chromium", () => {
  test("the payer sees the pay types with icons, picks WeChat, sees WeChat's cashier", async () => {
    const link = v2boardPayUrl({ url: `${base}/xpay/epay`, pid: "1001", key: SECRET }, {
      trade_no: "2025112518000001", total_amount: 1250, notify_url: "http://127.0.0.1:9/api/v1/guest/payment/notify/EPay/x", return_url: "https://v2.example/#/order/2025112518000001",
    });
    const page = await browser.newPage({ viewport: { width: 420, height: 760 } });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && problems.push(`console: ${m.text()}`));
    page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));

    await page.goto(link);
    expect(page.url()).toStartWith(`${base}/pay/`);
    await page.waitForSelector('#pay-types button[data-pay-type="wxpay"]');
    // Both icons are the gateway's own SVGs, loaded (not the lettered fallback badge).
    await page.waitForFunction(() => {
      const imgs = Array.from(document.querySelectorAll<HTMLImageElement>("#pay-types button img.badge-img"));
      return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
    });
    const buttons = await page.$$eval("#pay-types button", (bs) => bs.map((b) => ({ type: b.getAttribute("data-pay-type"), text: b.textContent, icon: b.querySelector("img")?.getAttribute("src") })));
    expect(buttons).toEqual([
      { type: "alipay", text: "支付宝", icon: `${base}/assets/pay-types/alipay.svg` },
      { type: "wxpay", text: "微信支付", icon: `${base}/assets/pay-types/wxpay.svg` },
    ]);
    expect(await page.textContent("#state")).toBe("请选择支付方式");
    expect(await page.textContent("#amount")).toBe("¥12.50");
    await page.screenshot({ path: join(SHOTS, "panel-choice.png"), fullPage: true });

    await page.click('#pay-types button[data-pay-type="wxpay"]');
    await page.waitForFunction(() => (document.getElementById("qr") as HTMLImageElement | null)?.naturalWidth! > 0);
    expect(await page.textContent("#pay-type-text")).toBe("微信支付");
    expect(await page.getAttribute("#pay-logo img", "src")).toBe(`${base}/assets/pay-types/wxpay.svg`);
    expect(await page.textContent("#state")).toBe("等待支付");
    expect(await page.isHidden("#pay-types")).toBe(true);
    await page.screenshot({ path: join(SHOTS, "panel-choice-wxpay.png"), fullPage: true });

    // A reload after the pick opens WeChat's cashier again; the panel's link too (one order).
    await page.goto(link);
    await page.waitForFunction(() => (document.getElementById("qr") as HTMLImageElement | null)?.naturalWidth! > 0);
    expect(await page.textContent("#pay-type-text")).toBe("微信支付");
    expect((await gw.store.listOrders({ pid: 1001, limit: 10, offset: 0 })).length).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);
});
