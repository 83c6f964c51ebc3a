// The operator console in a real browser (Debian chromium through playwright-core) against the real
// `xpay serve` process: first-run setup through the link it prints, log out, log in again, the
// sessions page's htmx actions (revoke, the password form's inline errors) under the strict CSP,
// the audit log, the English switch, and a phone-width layout. Screenshots go to
// artifacts/screenshots/admin-*.png (CI keeps them); any console error, CSP refusal or failed
// request fails the test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { login, openPage as watchedPage, PASSWORD, SHOTS, shots, startConsole } from "./support.ts";

const xc = startConsole("xpay-admin-e2e-");
let browser: Browser;
let base = "";
let setupLink = "";

beforeAll(async () => {
  ({ base, setupLink } = await xc.serve([], { setupLink: true }));
  browser = await xc.launch();
}, 30_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-*.png`);
});

/**
 * A page that records every console error or warning (CSP refusals included) and page error in
 * `problems`, and every answer of 400 and above in `refusals` (the tests say which they expect).
 */
const openPage = (context: BrowserContext) => watchedPage(context, true);

const shot = shots("admin");

describe("operator console in chromium", () => {
  let desktop: BrowserContext;

  test("first run: the printed link, an inline error, then the first operator logged in", async () => {
    expect(setupLink).toMatch(/\/admin\/setup\?token=/);
    desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
    const { page, problems, refusals } = await openPage(desktop);
    await page.goto(setupLink);
    expect(await page.textContent("h1")).toBe("创建第一个管理员");
    await shot(page, "setup");
    await page.fill("#f-user", "admin");
    await page.fill("#f-password", PASSWORD);
    await page.fill("#f-repeat", "something else");
    await page.click("button[type=submit]");
    expect(await page.textContent("#f-repeat-error")).toBe("两次输入的密码不一致。");
    expect(await page.getAttribute("#f-repeat", "aria-invalid")).toBe("true");
    await shot(page, "setup-error");
    await page.fill("#f-password", PASSWORD);
    await page.fill("#f-repeat", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL(`${base}/admin`);
    expect(await page.textContent("h1")).toBe("欢迎，admin");
    expect(await page.textContent(".sidenav a[aria-current=page]")).toBe("概览");
    await shot(page, "dashboard");
    // The link is burnt.
    const again = await page.goto(setupLink);
    expect(again?.status()).toBe(410);
    expect(problems).toEqual([]);
    expect(refusals).toEqual(["422 /admin/setup", "410 /admin/setup"]);
    await page.close();
  }, 60_000);

  test("log out, a wrong password, log in again (back to the page asked for)", async () => {
    const { page, problems, refusals } = await openPage(desktop);
    await page.goto(`${base}/admin`);
    await page.click("#logout");
    await page.waitForURL(`${base}/admin/login?out=1`);
    expect(await page.textContent("#login-info")).toBe("已退出登录。");
    await shot(page, "login");
    await page.goto(`${base}/admin/audit`);
    await page.waitForURL(/\/admin\/login\?next=%2Fadmin%2Faudit$/);
    await page.fill("#f-user", "admin");
    await page.fill("#f-password", "not the password");
    await page.click("button[type=submit]");
    expect(await page.textContent("#login-error")).toBe("用户名或密码错误。");
    await shot(page, "login-error");
    await page.fill("#f-password", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL(`${base}/admin/audit`);
    const actions = await page.$$eval("#audit-table td[data-action]", (els) => els.map((e) => [e.getAttribute("data-action"), e.textContent]));
    // A failed login is a count, not an audit row; each action reads as its label (issue 28).
    expect(actions).toEqual([["session.login", "登录"], ["session.logout", "退出登录"], ["operator.setup", "首次设置"]]);
    await shot(page, "audit");
    expect(problems).toEqual([]);
    expect(refusals).toEqual(["401 /admin/login"]);
    await page.close();
  }, 60_000);

  test("sessions: another browser's session revoked in place (htmx under the CSP); the password form's inline error", async () => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 }, userAgent: "Other browser (e2e)" });
    const second = await openPage(other);
    await login(second.page, base);

    const { page, problems, refusals } = await openPage(desktop);
    await page.goto(`${base}/admin/sessions`);
    expect(await page.locator("#sessions-table tbody tr").count()).toBe(2);
    await shot(page, "sessions");
    page.once("dialog", (d) => void d.accept());
    const before = page.url();
    await page.click("#sessions-table form button");
    await page.waitForSelector("#sessions .notice-ok");
    expect(await page.textContent("#sessions .notice-ok")).toBe("会话已注销。");
    expect(page.url()).toBe(before); // swapped in place, no navigation
    expect(await page.locator("#sessions-table tbody tr").count()).toBe(1);
    await second.page.reload();
    expect(second.page.url()).toMatch(/\/admin\/login\?next=/);

    await page.fill("#f-current", "wrong current password");
    await page.fill("#f-password", "a new good password");
    await page.fill("#f-repeat", "a new good password");
    await page.click("#password-form button[type=submit]");
    await page.waitForSelector("#f-current-error");
    expect(await page.textContent("#f-current-error")).toBe("当前密码不正确。");
    await shot(page, "sessions-password-error");
    expect(problems).toEqual([]);
    expect(refusals).toEqual(["422 /admin/sessions/password"]);
    expect(second.problems).toEqual([]);
    await other.close();
    await page.close();
  }, 60_000);

  test("English, and a phone-width layout", async () => {
    const { page, problems } = await openPage(desktop);
    await page.goto(`${base}/admin/sessions`);
    await page.click("#lang-switch");
    await page.waitForURL(`${base}/admin/sessions`);
    expect(await page.textContent("h1")).toBe("Sessions");
    await shot(page, "sessions-en");
    await page.click("#lang-switch");
    await page.waitForURL(`${base}/admin/sessions`);
    expect(await page.textContent("h1")).toBe("会话");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/admin`);
    // Nothing wider than the screen but the scrollable nav strip and tables.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, "phone-dashboard");
    await page.goto(`${base}/admin/audit`);
    await shot(page, "phone-audit");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
