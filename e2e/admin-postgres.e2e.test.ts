// The operator console in a real browser against `xpay serve` on PostgreSQL (issue 20): a throwaway
// cluster, the first operator made through the link serve prints, the dashboard after a payment,
// the orders list and an order's page, an unmatched report assigned to its order from the report's
// page (the order paid, the merchant notified by a real local receiver). Any console error, CSP
// refusal or failed request fails the test. Screenshots: artifacts/screenshots/pg-*.png.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import type { Browser } from "playwright-core";
import { md5Sign } from "../src/protocols/signing.ts";
import { type PgCluster, startCluster, withPostgres } from "../test/pg/cluster.ts";
import { launchChromium, openPage, PASSWORD, SHOTS, shots } from "./support.ts";

const SECRET = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
const shot = shots("pg");

const signed = (p: Record<string, string | number>) => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p)) out[k] = String(v);
  return { ...out, sign: md5Sign(out, SECRET, ["sign"]) };
};

withPostgres(() => {
  let cluster: PgCluster | null = null;
  let url = "";
  let server: Bun.Subprocess<"ignore", "pipe", "pipe"> | undefined;
  let browser: Browser | undefined;
  let base = "";
  let setupLink = "";
  let logged = "";
  const received: string[] = [];
  const receiver = Bun.serve({
    port: 0, hostname: "127.0.0.1",
    async fetch(req) {
      received.push(new URLSearchParams(await req.text()).get("trade_no") ?? new URL(req.url).searchParams.get("trade_no") ?? "?");
      return new Response("success");
    },
  });
  const cli = (...args: string[]) => {
    const p = Bun.spawnSync([process.execPath, resolve("src/cli/main.ts"), "--db", url, ...args], { env: { ...process.env, NO_COLOR: "1" } });
    if (p.exitCode !== 0) throw new Error(`xpay ${args.join(" ")}: ${p.stderr.toString()}`);
    return p.stdout.toString();
  };
  const post = async (path: string, body: Record<string, string>) =>
    (await (await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as any;
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    cluster = await startCluster();
    // The cluster trusts loopback, so a password in the URL is not needed; it is there to show that
    // no log line or page ever prints it.
    url = (await cluster.createDatabase("console")).replace("://xpay@", "://xpay:s3cret-pw@");
    server = Bun.spawn([process.execPath, resolve("src/cli/main.ts"), "--db", url, "serve", "--port", "0", "--log-format", "json"], { env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const reader = server.stdout.getReader();
    let out = "";
    while (!base || !setupLink) {
      const r = await reader.read();
      if (r.done) throw new Error(`serve ended: ${out}${await new Response(server.stderr).text()}`);
      out += new TextDecoder().decode(r.value);
      for (const line of out.split("\n").filter((l) => l.startsWith("{"))) {
        const e = JSON.parse(line);
        if (e.event === "listening") base = e.url;
        if (e.event === "admin.setup_link") setupLink = e.url;
      }
    }
    logged = out;
    void (async () => { for (let r = await reader.read(); !r.done; r = await reader.read()) logged += new TextDecoder().decode(r.value); })();
    void new Response(server.stderr).text().then((t) => (logged += t));
    cli("merchant", "add", "--name", "Shop", "--pid", "1001", "--secret", SECRET);
    // The merchant's own account: its AppSecret reports pay there, never on a shared one (issue 27 item 1).
    cli("channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "main", "--name", "支付宝 A", "--qrcode", "https://qr.alipay.com/fkx0001");
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill("SIGTERM");
    await server?.exited;
    receiver.stop(true);
    cluster?.stop();
    console.log(`screenshots: ${SHOTS}/pg-*.png`);
  });

  test("first operator, dashboard, orders, and an unmatched report assigned in the browser, all on PostgreSQL", async () => {
    const notifyUrl = `http://127.0.0.1:${receiver.port}/n`;
    const create = async (money: string, out: string) => {
      const r = await post("/xpay/order/create", signed({ pid: 1001, pay_type: "alipay", name: "VIP", money, out_trade_no: out, notify_url: notifyUrl }));
      expect(r.code).toBe(200);
      return r.data as { trade_no: string; trade_amount: string };
    };
    const paid = await create("10.00", "PG-1");
    const short = await create("20.00", "PG-2");
    const pay = (cents: number) => post("/api/report/1001/pc", signed({ amount: cents, pay_type: "alipay", channel_code: "main", timestamp: now() }));
    expect((await pay(Math.round(Number(paid.trade_amount) * 100))).data.outcome).toBe("matched");
    const stray = await pay(Math.round(Number(short.trade_amount) * 100) - 1); // the payer sent 0.01 less
    expect(stray.data.outcome).toBe("unmatched");

    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
    const { page, problems, refusals } = await openPage(context, true);
    await page.goto(setupLink);
    await page.fill("#f-user", "admin");
    await page.fill("#f-password", PASSWORD);
    await page.fill("#f-repeat", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL(`${base}/admin`);
    expect(await page.textContent("h1")).toBe("欢迎，admin");
    expect(await page.locator("canvas").count()).toBeGreaterThan(0);
    await shot(page, "dashboard");

    await page.goto(`${base}/admin/orders`);
    expect(await page.textContent("#orders-table")).toContain(paid.trade_no);
    await page.goto(`${base}/admin/orders/${paid.trade_no}`);
    expect(await page.textContent("#order-view .detail-head .tag")).toBe("已支付");
    await shot(page, "order");

    await page.goto(`${base}/admin/reports/${stray.data.report_id}`);
    await page.click(`#candidates button[data-value="${short.trade_no}"]`);
    await page.fill("#f-reason", "付款人少付 0.01 元");
    page.once("dialog", (d) => void d.accept());
    await page.click("#assign-form button[type=submit]");
    await page.waitForSelector("#assign-done");
    expect(await page.textContent("#assign-done")).toBe(`已分配：订单 ${short.trade_no} 已支付，商户通知已排队。`);
    await shot(page, "assigned");
    for (let i = 0; i < 100 && !received.includes(short.trade_no); i++) await Bun.sleep(100);
    expect(received).toContain(paid.trade_no);
    expect(received).toContain(short.trade_no);

    await page.goto(`${base}/admin/audit`);
    expect(await page.locator('#audit-table td[data-action="report.assign"]').first().textContent()).toBe("将上报分配给订单");
    await page.goto(`${base}/admin/settings`);
    expect(await page.content()).not.toContain("s3cret-pw");
    expect(logged).toContain('"db":"postgres://xpay:***@');
    expect(logged).not.toContain("s3cret-pw");
    expect(problems).toEqual([]);
    expect(refusals).toEqual([]);
    await context.close();
  }, 90_000);
});
