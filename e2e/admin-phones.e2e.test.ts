// Phones with secrets of their own, in a real browser (Debian chromium through playwright-core)
// against the real `xpay serve` process: open the setup page, add an SmsForwarder phone with the
// form, copy its Webhook Server URL and Secret from the answer, send what the app sends with that
// secret (its 测试 button), then reveal the secret again (audited) and copy it; bind the phone to
// another account on its page; see who watches each account; remove it. At phone width every page
// fits. Any console error, CSP refusal or unexpected failed request fails the test.
// Screenshots: artifacts/screenshots/admin-phones-*.png; for the operator guide
// docs/images/console-client-setup.png.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { SMS_JSON_TEMPLATE } from "../src/core/clients/setup.ts";
import { defaultFormBody, testButtonContent } from "../test/report/smsforwarder-app.ts";
import { SECRET } from "../test/helpers.ts";
import { docShot, login as loginAt, openPage, PASSWORD, SHOTS, shots, startConsole } from "./support.ts";

const xc = startConsole("xpay-phones-e2e-");
const { cli } = xc;
const PHONE = "收款机 1号";
let browser: Browser;
let base = "";

beforeAll(async () => {
  cli(["migrate"]);
  cli(["merchant", "add", "--name", "示例商城", "--pid", "1001", "--secret", SECRET]);
  cli(["channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "alipay_main", "--name", "支付宝 店铺码", "--qrcode", "https://qr.alipay.com/fkx0001"]); // 1, shared
  cli(["channel", "add", "--pid", "1001", "--pay-type", "wxpay", "--code", "wx_main", "--name", "微信 收款码", "--qrcode", "wxp://f2f0abc"]); // 2
  cli(["channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "alipay_own", "--name", "支付宝 备用码", "--qrcode", "https://qr.alipay.com/fkx0002"]); // 3
  cli(["channel", "add", "--pid", "0", "--pay-type", "qqpay", "--code", "qq_main", "--name", "QQ钱包 收款码", "--qrcode", "https://i.qianbao.qq.com/qq"]); // 4, shared
  cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  ({ base } = await xc.serve(["--base-url", "https://pay.example.com"]));
  browser = await xc.launch();
}, 60_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-phones-*.png, ${SHOTS}/console-client-setup.png`);
});

const shot = shots("admin-phones");
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
/** The app's 测试 button now (its SMS carries the phone's wall clock, China time). */
const testSms = () => testButtonContent("xpay", new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " "));

describe("adding a phone in chromium", () => {
  let desktop: BrowserContext;
  let page: Page;
  let problems: string[];
  let refusals: string[];
  let secret = "";
  let clientPage = "";

  test("the setup page: add an SmsForwarder phone; its box answers in the app's own words; copy the URL and the secret", async () => {
    desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
    await desktop.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    ({ page, problems, refusals } = await openPage(desktop, true));
    page.on("dialog", (d) => void d.accept()); // hx-confirm and data-confirm
    await loginAt(page, base);
    await page.click('nav a[href="/admin/clients"]');
    await page.click("#setup-link");
    await page.waitForSelector("#add-form");
    expect(await page.getAttribute("#add", "open")).not.toBeNull(); // no phone yet: the form is open
    expect(await page.$$eval("#f-pid option", (o) => o.map((x) => x.textContent))).toEqual(["1001 示例商城", "0 运营者（共享账户）"]);
    expect(await page.$$eval("#f-accounts input", (i) => i.map((x) => (x as HTMLInputElement).value))).toEqual(["1", "2", "3", "4"]);
    await shot(page, "setup-empty");

    await page.check('input[name="kind"][value="smsforwarder"]');
    await page.fill("#f-client-name", PHONE);
    await page.check('#f-accounts input[value="3"]');
    await page.click("#add-form button[type=submit]");
    await page.waitForSelector("#added");
    expect(await page.textContent("#added h2")).toBe(`已添加 ${PHONE}`);
    const url = await page.textContent("#sms-1-url");
    expect(url).toBe("https://pay.example.com/api/report/smsforwarder/1");
    secret = (await page.textContent("#sms-1-secret"))!;
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    const box = (await page.textContent("#sms-1"))!;
    for (const label of ["发送通道", "Webhook", "请求方式", "POST", "Webhook Server", "Secret", "消息模板", "留空（App 的默认设置）", "测试"]) expect({ label, has: box.includes(label) }).toEqual({ label, has: true });
    expect(box).toContain("#3 支付宝 备用码 · 支付宝");
    await page.evaluate(() => window.scrollTo(0, 0));
    await docShot(page, "client-setup");
    await shot(page, "setup-added");
    await page.click('button[data-copy="#sms-1-url"]');
    await page.waitForSelector("#flash:not([hidden])");
    expect(await clipboard(page)).toBe(url!);
    await page.click('button[data-copy="#sms-1-secret"]');
    await page.waitForFunction((s) => navigator.clipboard.readText().then((t) => t === s), secret);
    await page.click('button[data-copy="#sms-1-template"]');
    await page.waitForFunction((s) => navigator.clipboard.readText().then((t) => t === s), SMS_JSON_TEMPLATE);
    const audit = cli(["audit", "list", "--json"]);
    expect(audit).toContain("client.add");
    expect(audit).not.toContain("client.reveal_key"); // shown once by the add, not revealed
    expect(audit).not.toContain(secret);
    expect(problems).toEqual([]);
    expect(refusals).toEqual([]);
  }, 30_000);

  test("the app's 测试 with the copied secret arrives live; the reload hides the secret; the reveal shows it again, audited", async () => {
    const t = testSms();
    const sent = await fetch(`${base}/api/report/smsforwarder/1`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: defaultFormBody(t.from, t.content, Date.now(), secret) });
    expect(sent.status).toBe(200);
    await page.goto(`${base}/admin/clients/setup?pid=1001`);
    expect(await page.content()).not.toContain(secret);
    expect(await page.getAttribute("#add", "open")).toBeNull(); // a phone exists: the form is folded
    expect(await page.textContent("#live-table")).toContain("19999999999");
    await page.click("#sms-1 button[type=submit]");
    await page.waitForSelector("#sms-1-secret");
    expect(await page.textContent("#sms-1-secret")).toBe(secret);
    await page.click('button[data-copy="#sms-1-secret"]');
    await page.waitForFunction((s) => navigator.clipboard.readText().then((x) => x === s), secret);
    expect(cli(["audit", "list", "--action", "client.reveal_key", "--json"])).toContain("keyed_client:1");
    await page.locator("#smsforwarder").scrollIntoViewIfNeeded();
    await shot(page, "setup-revealed");
    // A name already taken: the form again with the reason under the field (422), nothing added.
    await page.click("#add summary");
    await page.fill("#f-client-name", PHONE);
    await page.click("#add-form button[type=submit]");
    await page.waitForSelector("#f-client-name-error");
    expect(await page.textContent("#f-client-name-error")).toBe(`已有名为 ${PHONE} 的监控端，请换一个名称。`);
    expect(refusals).toEqual(["422 /admin/clients/setup/add"]);
    refusals.length = 0;
    expect(problems).toEqual([]);
  }, 30_000);

  test("bind on the client's page; the accounts page names the watchers and the unwatched", async () => {
    await page.goto(`${base}/admin/clients`);
    const row = page.locator("#clients-table tr", { hasText: PHONE });
    expect(await row.locator("td").nth(3).textContent()).toBe("SmsForwarder");
    expect(await row.locator("td").nth(5).textContent()).toContain("#3 支付宝 备用码 · 支付宝");
    await row.locator("a").first().click();
    await page.waitForSelector("#bind-form");
    clientPage = new URL(page.url()).pathname;
    await page.uncheck('#f-bind input[value="3"]');
    await page.check('#f-bind input[value="1"]');
    await page.click('#bind-form button[type=submit]:not([name])');
    await page.waitForSelector("#watch-saved");
    expect(await page.textContent("#client-facts")).toContain("#1 支付宝 店铺码 · 支付宝");
    await page.locator("#watch").scrollIntoViewIfNeeded();
    await shot(page, "client");
    await page.goto(`${base}/admin/accounts`);
    const monitor = (id: number) => page.locator(`#accounts-table tr[data-account="${id}"] td`).nth(3).textContent();
    expect(await monitor(1)).toContain(PHONE);
    expect(await monitor(3)).toContain("商户密钥上报");
    expect(await monitor(4)).toContain("无人监控");
    await shot(page, "accounts");
    expect(cli(["audit", "list", "--action", "client.bind", "--json"])).toContain("keyed_client:1");
    expect(problems).toEqual([]);
    expect(refusals).toEqual([]);
  }, 30_000);

  test("at phone width the pages fit", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", deviceScaleFactor: 2 });
    const { page: p, problems: bad } = await openPage(phone);
    await loginAt(p, base);
    for (const [path, name] of [["/admin/clients/setup?pid=1001", "phone-setup"], [clientPage, "phone-client"], ["/admin/accounts", "phone-accounts"], ["/admin/clients", "phone-list"]] as const) {
      await p.goto(`${base}${path}`);
      if (name === "phone-setup") await p.click("#add summary");
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
      await shot(p, name);
    }
    expect(bad).toEqual([]);
    await phone.close();
  }, 30_000);

  test("remove: asked first, then the list says its secret no longer works, and the app's requests are refused", async () => {
    await page.goto(`${base}${clientPage}`);
    await page.click("#remove-form button[type=submit]");
    await page.waitForSelector("#clients-notice");
    expect(await page.textContent("#clients-notice")).toBe("监控端已删除，它的密钥已失效。");
    const t = testSms();
    const sent = await fetch(`${base}/api/report/smsforwarder/1`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: defaultFormBody(t.from, t.content, Date.now(), secret) });
    expect(sent.status).toBeGreaterThanOrEqual(400);
    expect(cli(["audit", "list", "--action", "client.remove", "--json"])).toContain("keyed_client:1");
    expect(problems).toEqual([]);
    await desktop.close();
  }, 30_000);
});
