// Monitoring clients in a real browser (Debian chromium through playwright-core) against the real
// `xpay serve` process: a phone online (it beats and reports through the report API while the
// test runs) and one offline, a day of online history written into client_online as a year of
// beats would have left it (with two silences), the client page's live report list picking up a
// payment by htmx without a reload, the device history, the setup helper's audited reveals (the
// AppSecret, the V免签 QR code, which must decode to HOST/KEY), and the reserved amounts of an
// account with the probe. Any console error, CSP refusal or failed request fails the test.
// Screenshots: artifacts/screenshots/admin-clients-*.png; for the operator guide
// docs/images/console-clients.png, console-client.png, console-slots.png.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { assetUrl } from "../src/admin/assets.ts";
import { nativeCreate, SECRET, signed } from "../test/helpers.ts";
import { docShot, login as loginAt, openPage as watchedPage, PASSWORD, SHOTS, shots, startConsole } from "./support.ts";

const xc = startConsole("xpay-clients-e2e-");
const { db, cli, post } = xc;
const VMQ_KEY = "4b5a3c2d1e0f9a8b7c6d5e4f3a2b1c0d";
const PHONE = "Xiaomi 13 收款机";
let browser: Browser;
let base = "";
const now = () => Math.floor(Date.now() / 1000);
const beat = (name: string) => fetch(`${base}/api/report/1001/heart?${new URLSearchParams(signed({ client_name: name, channel_id: 1, timestamp: now() }, SECRET))}`);
/** A forwarded Alipay notification, as SmsForwarder sends it (receive_time: the phone's wall clock, China time). */
function notification(msg: string, title = "收钱码收款", receivedAt = now()) {
  const wall = new Date((receivedAt + 8 * 3600) * 1000).toISOString().slice(0, 19).replace("T", " ");
  const content = JSON.stringify({ from: "com.eg.android.AlipayGphone", package_name: "com.eg.android.AlipayGphone", app_name: "支付宝", title, msg, receive_time: wall, device_name: PHONE });
  return post("/api/report/1001", signed({ from: PHONE, content, timestamp: now() }, SECRET));
}

beforeAll(async () => {
  cli(["migrate"]);
  cli(["merchant", "add", "--name", "示例商城", "--pid", "1001", "--secret", SECRET]);
  // The merchant's own account: its AppSecret reports may pay there (never on a shared one, issue 27 item 1).
  cli(["channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "alipay_main", "--name", "支付宝 店铺码", "--qrcode", "https://qr.alipay.com/fkx0001"]);
  cli(["channel", "add", "--pid", "1001", "--pay-type", "wxpay", "--code", "wx_main", "--name", "微信 收款码", "--qrcode", "wxp://f2f0abc"]);
  cli(["client", "add-vmq", "--name", "vmq-phone", "--pid", "1001", "--key", VMQ_KEY, "--base-url", "http://pay.example.com"]);
  cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  // A day of history, as the beats would have left it (migration 013: the finished stretches in
  // client_online, the current one on the clients row): the phone online since yesterday with a
  // 25-minute outage at night and another of 10 minutes this morning, silent for the last 700 s;
  // the spare phone silent for two hours (offline).
  const t = now();
  const raw = new Database(db);
  const client = raw.query("INSERT INTO clients (kind, pid, name, channel_id, ext_data, last_seen_at, online_since, online_beats) VALUES ('phone', 1001, ?, ?, '', ?, ?, ?) RETURNING id");
  const phone = (client.get(PHONE, 1, t - 700, t - 6 * 3600 + 600, 696) as { id: number }).id;
  client.get("Redmi 备用机", 2, t - 7200, t - 30 * 3600, 3360);
  const stretch = raw.query("INSERT INTO client_online (client_id, start_at, end_at, beats) VALUES (?, ?, ?, ?)");
  stretch.run(phone, t - 26 * 3600, t - 15 * 3600, 1320);
  stretch.run(phone, t - 15 * 3600 + 1500, t - 6 * 3600, 1030);
  raw.close();
  ({ base } = await xc.serve(["--base-url", "https://pay.example.com"]));
  // The phone comes back (a new stretch after the silence), and a chat that quotes a payment arrives.
  expect((await beat(PHONE)).status).toBe(200);
  expect((await notification("好友说：我刚给你转了12.00元", "张三")).code).toBe(200);
  browser = await xc.launch();
}, 60_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-clients-*.png, ${SHOTS}/console-clients.png, console-client.png, console-slots.png`);
});

async function openPage(context: BrowserContext) {
  const watched = await watchedPage(context);
  watched.page.on("dialog", (d) => void d.accept()); // hx-confirm of the reveal buttons
  return watched;
}

const shot = shots("admin-clients");
const login = (page: Page) => loginAt(page, base);

describe("monitoring clients in chromium", () => {
  let desktop: BrowserContext;
  let page: Page;
  let problems: string[];

  test("the list: one phone online, one offline, the V免签 app never seen; accounts link to their reserved amounts", async () => {
    desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
    ({ page, problems } = await openPage(desktop));
    await login(page);
    await page.click('nav a[href="/admin/clients"]');
    await page.waitForSelector("#clients-table");
    const rows = await page.$$eval("#clients-table tbody tr", (trs) => trs.map((r) => [(r as HTMLTableRowElement).cells[0]!.textContent!.trim(), (r as HTMLTableRowElement).cells[1]!.textContent!.trim()]));
    expect(rows).toEqual([[PHONE, "在线"], ["Redmi 备用机", "离线"], ["vmq-phone", "从未上报"]]);
    expect(await page.textContent("#clients-summary")).toBe("在线 1 个，离线 2 个");
    expect(await page.$$eval('#clients-table tbody tr:first-child a[href="/admin/accounts/1/slots"]', (a) => a.length)).toBe(1);
    await shot(page, "list");
    await docShot(page, "clients");
    expect(problems).toEqual([]);
  }, 30_000);

  test("the client page: a payment appears in the live list without a reload; the history marks the silences", async () => {
    await page.click(`#clients-table a:text("${PHONE}")`);
    await page.waitForSelector("#history");
    expect(await page.textContent("h1")).toBe(`监控端 ${PHONE}`);
    // Three silences in the last 24 h (25 min at night, 10 min this morning, the one that just ended), newest first.
    const gaps = await page.$$eval("#gaps-table tbody tr td:last-child", (tds) => tds.map((td) => td.textContent));
    expect(gaps.slice(1)).toEqual(["10 分 0 秒", "25 分 0 秒"]);
    expect(gaps[0]).toMatch(/^1\d 分 \d+ 秒$/);
    expect(await page.$$eval("#timeline rect.tl-off", (r) => r.length)).toBe(3);
    expect(await page.$$eval("#timeline rect.tl-on", (r) => r.length)).toBe(4);
    expect(await page.textContent("#unread-table")).toContain("我刚给你转了12.00元");
    expect(await page.$$eval("#live-table tbody tr", (trs) => trs.length)).toBe(1);

    // Pay a cent: an order of 0.01 and the phone's notification of it, through the real routes.
    const created = await post("/xpay/order/create", nativeCreate({ money: "0.01", pay_type: "alipay" }));
    expect(created.code).toBe(200);
    expect((await notification("你已成功收款0.01元", "收钱码收款", now() - 2)).data.outcome).toBe("matched");
    await page.waitForSelector("#live-table tr.cl-new", { timeout: 15_000 });
    const fresh = await page.$eval("#live-table tr.cl-new", (r) => r.textContent);
    expect(fresh).toContain("已匹配");
    expect(fresh).toContain(created.data.trade_no!);
    expect(await page.getAttribute(`#live-table tr.cl-new a[href="/admin/orders/${created.data.trade_no}"]`, "href")).toBeTruthy();
    await page.reload();
    await page.waitForSelector("#latency-table");
    expect(Number(await page.getAttribute("#latency-table tbody tr", "data-report"))).toBeGreaterThan(0);
    await page.click("#live-table tbody tr:first-child summary");
    await shot(page, "client");
    await page.evaluate(() => window.scrollTo(0, document.getElementById("reports")!.getBoundingClientRect().bottom + window.scrollY - 40)); // the history card under the top bar
    await docShot(page, "client");
    await page.click('.cl-ranges a:text("7 天")');
    await page.waitForURL(/days=7/);
    expect(await page.getAttribute('.cl-ranges a[aria-current="true"]', "href")).toContain("days=7");
    expect(await page.textContent("#range-figures")).toContain("中断 3 次");
    expect(problems).toEqual([]);
  }, 30_000);

  test("the setup helper: URLs in the apps' form; the secret and the V免签 QR code only on an audited reveal", async () => {
    await page.goto(`${base}/admin/clients/setup?pid=1001`);
    expect(await page.textContent("#url-message")).toBe("https://pay.example.com/api/report/1001");
    expect(await page.textContent("#secret-box")).not.toContain(SECRET);
    expect(await page.content()).not.toContain(VMQ_KEY);
    await page.click("#secret-box button[type=submit]");
    await page.waitForSelector("#secret-value");
    expect(await page.textContent("#secret-value")).toBe(SECRET);
    await page.click("#vmq-1 button[type=submit]");
    await page.waitForSelector("#vmq-1-qr");
    expect(await page.textContent("#vmq-1-config")).toBe(`pay.example.com/${VMQ_KEY}`);
    // The image is a QR code of that text: decode it in the page with the console's own jsQR copy.
    await page.addScriptTag({ url: `${base}${assetUrl("jsqr")}` });
    const decoded = await page.evaluate(async () => {
      const img = document.getElementById("vmq-1-qr") as HTMLImageElement;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext("2d")!;
      g.drawImage(img, 0, 0);
      const data = g.getImageData(0, 0, c.width, c.height);
      return (window as unknown as { jsQR(d: Uint8ClampedArray, w: number, h: number): { data: string } | null }).jsQR(data.data, c.width, c.height)?.data;
    });
    expect(decoded).toBe(`pay.example.com/${VMQ_KEY}`);
    const audit = cli(["audit", "list", "--json"]);
    expect(audit).toContain("merchant.reveal_secret");
    expect(audit).toContain("vmq_client.reveal_key");
    expect(audit).not.toContain(SECRET);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "setup"); // the guide's picture of this page is admin-phones.e2e.test.ts's (a phone just added)
    expect(problems).toEqual([]);
  }, 30_000);

  test("reserved amounts: three orders of 10.00 hold 10.00, 9.99, 9.98; the probe says the next gets 9.97, and it does", async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await post("/xpay/order/create", nativeCreate({ money: "10.00", pay_type: "alipay" }));
      made.push(r.data.trade_no!);
    }
    await page.goto(`${base}/admin/clients`);
    await page.click('#slots-card a[href="/admin/accounts/1/slots"]');
    await page.waitForSelector("#probe-form");
    await page.fill("#f-amount", "10.00");
    await page.click("#probe-form button[type=submit]");
    await page.waitForSelector("#probe-next");
    expect(await page.textContent("#probe-next")).toContain("9.97");
    const held = await page.$$eval("#slots-table tbody tr", (trs) => trs.map((r) => r.getAttribute("data-slot")));
    expect(held).toEqual(["1", "998", "999", "1000"]); // the paid cent is held too, for the match window
    await shot(page, "slots");
    await docShot(page, "slots");
    const next = await post("/xpay/order/create", nativeCreate({ money: "10.00", pay_type: "alipay" }));
    expect(next.data.trade_amount).toBe("9.97");
    await page.fill("#f-amount", "ten");
    await page.click("#probe-form button[type=submit]");
    expect(await page.textContent("#f-amount-error")).toBe("请输入金额，例如 10.00。");
    expect(problems).toEqual(["422 /admin/accounts/1/slots"]);
  }, 30_000);

  test("at phone width the pages fit", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", deviceScaleFactor: 2 });
    const { page: p } = await openPage(phone);
    await login(p);
    for (const [path, name] of [["/admin/clients", "phone-list"], ["/admin/clients/2", "phone-client"], ["/admin/accounts/1/slots?amount=10.00", "phone-slots"]] as const) {
      await p.goto(`${base}${path}`);
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
      await shot(p, name);
    }
    await phone.close();
    await desktop.close();
  }, 30_000);
});
