// Issue 19 in a real browser: `xpay dev` as a process, its cashier page in chromium with the
// test-mode banner and the simulate panel. A click on 模拟支付成功 pays through the report path: the
// page shows the paid state and the merchant's listener gets the signed notification. Screenshots
// go to artifacts/screenshots/ (git-ignored; CI keeps them).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { ROOT, startDev, startHooks, type DevProcess, type HookServer } from "../test/dev/dev-process.ts";
import { md5Rule, paramsOf } from "../test/dev/verify.ts";
import { launchChromium } from "./support.ts";

const SHOTS = join(ROOT, "artifacts", "screenshots");
let dev: DevProcess;
let hooks: HookServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  hooks = startHooks();
  dev = await startDev(["dev", "--port", "0"]);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await dev?.stop();
  hooks?.stop();
});

async function create(outTradeNo: string, money: string, notifyPath: string): Promise<string> {
  const params: Record<string, string> = { pid: dev.pid, pay_type: "alipay", name: "会员", money, out_trade_no: outTradeNo, notify_url: hooks.url(notifyPath) };
  params.sign = md5Rule(params, dev.secret, ["sign"]);
  const res = await fetch(`${dev.base}/xpay/order/create`, { method: "POST", body: new URLSearchParams(params) });
  const body = (await res.json()) as { code: number; data: { trade_no: string } };
  expect(body.code).toBe(200);
  return body.data.trade_no;
}

async function open(tradeNo: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 420, height: 980 } });
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  // A CSP refusal of the injected style or script shows up here as a console error.
  page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && problems.push(`console: ${m.text()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(`${dev.base}/pay/${tradeNo}`);
  await page.waitForFunction(() => (document.getElementById("qr") as HTMLImageElement | null)?.naturalWidth! > 0);
  return { page, problems };
}

describe("xpay dev cashier page in chromium", () => {
  test("banner and panel shown; 模拟支付成功 pays: the page turns paid, the notification verifies", async () => {
    const tradeNo = await create("E2E-PAY", "12.00", "/e2e-pay");
    const { page, problems } = await open(tradeNo);
    expect(await page.isVisible("#xpay-test-mode")).toBe(true);
    expect(await page.textContent("#xpay-test-mode")).toContain("测试模式");
    // The banner is styled (the injected style ran under the page's nonce): a dark background.
    expect(await page.$eval("#xpay-test-mode", (el) => getComputedStyle(el).backgroundImage)).toContain("repeating-linear-gradient");
    expect(await page.textContent("#state")).toBe("等待支付");
    await page.screenshot({ path: join(SHOTS, "dev-cashier-pending.png"), fullPage: true });

    await page.getByRole("button", { name: "模拟支付成功" }).click();
    // The page's own status poll (every 2 s) sees the payment, as after a real one.
    await page.waitForFunction(() => document.getElementById("state")?.textContent === "支付成功", undefined, { timeout: 10_000 });
    expect(await page.textContent("#xpay-dev-result")).toContain("已模拟支付成功");
    expect(await page.isVisible("#result")).toBe(true);
    await page.screenshot({ path: join(SHOTS, "dev-cashier-paid.png"), fullPage: true });

    const [n] = await hooks.waitFor("/e2e-pay", 1);
    const got = paramsOf(n!.body);
    expect(got).toMatchObject({ trade_no: tradeNo, out_trade_no: "E2E-PAY", status: "2", amount: "1200" });
    expect(got.sign).toBe(md5Rule(got, dev.secret, ["sign"]));
    expect(problems).toEqual([]);
    await page.close();
  }, 40_000);

  test("让订单过期 times the order out; 模拟失败 leaves it pending with the reason", async () => {
    const expiring = await create("E2E-EXPIRE", "13.00", "/e2e-expire");
    const a = await open(expiring);
    await a.page.getByRole("button", { name: "让订单过期" }).click();
    await a.page.waitForFunction(() => document.getElementById("state")?.textContent === "订单已超时", undefined, { timeout: 10_000 });
    await a.page.screenshot({ path: join(SHOTS, "dev-cashier-expired.png"), fullPage: true });
    expect(a.problems).toEqual([]);
    await a.page.close();

    const failing = await create("E2E-FAIL", "14.00", "/e2e-fail");
    const b = await open(failing);
    await b.page.getByRole("button", { name: "模拟失败" }).click();
    await b.page.waitForFunction(() => document.getElementById("xpay-dev-result")?.textContent?.includes("未匹配"), undefined, { timeout: 10_000 });
    await Bun.sleep(2500); // one status poll of the page later it still waits for the payment
    expect(await b.page.textContent("#state")).toBe("等待支付");
    await b.page.screenshot({ path: join(SHOTS, "dev-cashier-failed.png"), fullPage: true });
    expect(hooks.received("/e2e-fail")).toEqual([]);
    expect(b.problems).toEqual([]);
    await b.page.close();
  }, 40_000);
});
