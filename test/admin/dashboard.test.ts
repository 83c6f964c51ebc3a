// Issue 17, the console dashboard: after real payments through the HTTP routes (native create,
// the report API) its figures are those of `xpay stats` (the CLI run on the same database, and
// the core function it calls); the attention list shows money with no order, a failing
// notification, a late payment and a creation failure, each linked with its CLI command; clients
// turn offline on the ManualClock; accounts near their daily limit; names shown as text.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { LANG_COOKIE } from "../../src/admin/i18n/index.ts";
import { formatYuan, parseYuan } from "../../src/core/money.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { lastDays, startOfLocalDay } from "../../src/core/stats/calendar.ts";
import { incomeStats, type StatsBy } from "../../src/core/stats/income.ts";
import { nativeCreate, postJson, seed } from "../helpers.ts";
import { amountReport, createOrder, report } from "../report/util.ts";
import { type AdminHarness, adminHarness } from "./support.ts";

let h: AdminHarness;
beforeEach(async () => (h = await adminHarness()));
afterEach(() => h.close());

const ZONE = "Asia/Shanghai";
const XSS = "<script>alert(1)</script>";

let cookie: string | undefined;
afterEach(() => (cookie = undefined));

/** Moves the harness clock to 10:00:00 local time tomorrow (hours and days are then fixed) and logs in again. */
async function atTenTomorrow() {
  const now = h.clock.now();
  const target = startOfLocalDay(now, ZONE) + 86400 + 10 * 3600;
  h.clock.advance(target - now - (h.clock.nowMs() % 1000) / 1000);
  cookie = (await h.session()).cookie; // the first session has idled out meanwhile
  return target;
}

const dashboard = async (o: { lang?: string } = {}) => {
  const c = cookie ?? h.login.cookie;
  const res = await h.get("/admin", { cookie: o.lang ? `${c}; ${LANG_COOKIE}=${o.lang}` : c });
  expect(res.status).toBe(200);
  return res.text();
};

/** The markup of the element with this id, up to where the next part of the page starts. */
function part(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  if (start < 0) return "";
  const ends = ['class="dash-att"', 'class="dash-period"', 'class="dash-breakdown"', 'class="dash-chart-box"', "<section"]
    .map((m) => html.indexOf(m, start + id.length + 5))
    .filter((i) => i > 0);
  return html.slice(start, ends.length ? Math.min(...ends) : undefined);
}

const periodValue = (html: string, key: string) => part(html, `period-${key}`).match(/class="dash-value">([^<]+)</)![1];

/** A paid order through the routes: create, then the phone's amount report for its trade_amount. */
async function pay(money: string, o: Record<string, string> = {}) {
  const order = await createOrder(h, { money, ...o });
  const cents = parseYuan(order.trade_amount)!;
  const r = await amountReport(h, cents, o.pay_type ? { pay_type: o.pay_type, channel_code: `${o.pay_type}_qr` } : {});
  expect(r.body.data.outcome).toBe("matched");
  return { ...order, cents };
}

describe("figures after real payments", () => {
  test("the periods, breakdowns and chart data are the numbers `xpay stats` prints", async () => {
    await seed(h);
    await h.gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wxpay_qr", name: "WeChat B", qrcode: "wxp://f2f0001", now: h.clock.now() });
    await pay("10.00");
    await pay("25.50");
    await pay("8.88", { pay_type: "wxpay" });
    await createOrder(h, { money: "99.00" }); // created, never paid: counts in the ratio
    const html = await dashboard();
    const now = h.clock.now();
    const days = lastDays(now, 30, ZONE);
    const core = (from: number, to: number, by: StatsBy = "day") => incomeStats(h.gw, { from, to, by, zone: ZONE });
    const today = (await core(days[29]!, now + 1)).total;
    expect(today).toMatchObject({ paidCount: 3, paidAmount: 1000 + 2550 + 888, created: 4 });
    expect(periodValue(html, "today")).toBe(formatYuan(today.paidAmount));
    expect(part(html, "period-today")).toContain("创建 4 笔 · 支付率 75.0%");
    expect(periodValue(html, "yesterday")).toBe(formatYuan((await core(days[28]!, days[29]!)).total.paidAmount));
    expect(periodValue(html, "last7")).toBe(formatYuan((await core(days[23]!, now + 1)).total.paidAmount));

    // The CLI itself, on the same database (a reader beside the harness).
    const cli = (...args: string[]) => {
      const p = Bun.spawnSync([process.execPath, resolve("src/cli/main.ts"), "--db", h.dbPath, "stats", "--days", "30", "--json", ...args], { env: { ...process.env, NO_COLOR: "1" } });
      expect(p.exitCode).toBe(0);
      return JSON.parse(p.stdout.toString());
    };
    const total = cli().total;
    expect(periodValue(html, "last30")).toBe(total.paid_yuan);
    expect(part(html, "period-last30")).toContain(`${total.paid_count} 笔已支付`);
    const byType = cli("--by", "pay-type").rows as { key: string; paid_yuan: string; paid_count: number; paid_ratio: number }[];
    const table = part(html, "by-pay-type");
    for (const r of byType) {
      const row = table.slice(table.indexOf(`data-key="${r.key}"`)).split("</tr>")[0]!;
      expect(row).toContain(`<td class="num">${r.paid_yuan}</td>`);
      expect(row).toContain(`<td class="num">${r.paid_count}</td>`);
      expect(row).toContain(`${(r.paid_ratio * 100).toFixed(1)}%`);
    }
    expect(table).toContain('<td class="dash-name">支付宝</td>');
    expect(table).toContain('<td class="dash-name">微信支付</td>');
    expect(part(html, "by-merchant")).toContain(`<td class="num">${cli("--by", "merchant").rows[0].paid_yuan}</td>`);

    // The chart's JSON and its table: today's hours in the operator's zone, amounts in yuan.
    const json = part(html, "chart-hours").match(/data-chart="([^"]+)"/)![1]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
    const chart = JSON.parse(json) as { labels: string[]; full: string[]; yuan: number[] };
    const hours = (await core(days[29]!, now + 1, "hour")).rows;
    expect(chart.full).toEqual(hours.map((r) => r.key));
    expect(chart.yuan).toEqual(hours.map((r) => r.paidAmount / 100));
    expect(chart.labels.at(-1)).toBe(hours.at(-1)!.key.slice(11, 16));
    expect(part(html, "chart-hours")).toContain(`<td class="num">${formatYuan(today.paidAmount)}</td>`);
    const daysChart = JSON.parse(part(html, "chart-days").match(/data-chart="([^"]+)"/)![1]!.replaceAll("&quot;", '"'));
    expect(daysChart.yuan).toHaveLength(30);
    expect(daysChart.yuan.at(-1)).toBe(today.paidAmount / 100);
  });

  test("the chart assets are asked for, and a fresh database says there is nothing yet", async () => {
    const html = await dashboard();
    expect(html).toMatch(/<script src="\/admin\/assets\/uplot\.[0-9a-f]{10}\.js" defer><\/script>/);
    expect(html).toMatch(/<script src="\/admin\/assets\/dashboard\.[0-9a-f]{10}\.js" defer><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/admin\/assets\/dashboard\.[0-9a-f]{10}\.css"/);
    expect(html).toContain("今天还没有收入。");
    expect(html).toContain("近 30 天还没有收入。");
    expect(html).toContain('id="attention-none"');
    expect(html).toMatch(/id="attention-summary"[^>]*><span class="dash-alerts-label">待处理<\/span><span class="tag tag-ok">没有需要处理的事项<\/span><\/nav>/);
    expect(html).toContain('id="clients-none"');
    expect(html).toContain('id="limits-none"');
    expect(part(html, "by-pay-type")).toContain("近 30 天没有订单。");
    expect(periodValue(html, "today")).toBe("0.00");
    expect(part(html, "period-today")).toContain("支付率 —");
  });
});

describe("attention", () => {
  test("money with no order, a failing notification, a late payment and a creation failure, each linked with its command", async () => {
    await atTenTomorrow();
    await seed(h);
    await h.gw.store.setSetting("alert_notify_failures", "2");
    h.gw.forgetSettings();
    const stray = await amountReport(h, 4242); // nobody ordered 42.42
    expect(stray.body.data.outcome).toBe("unmatched");
    const late = await createOrder(h, { money: "10.00", notify_url: "http://127.0.0.1:9/notify" });
    h.clock.advance(901); // timed out; the payment still arrives inside the match window
    expect((await amountReport(h, parseYuan(late.trade_amount)!)).body.data.outcome).toBe("matched");
    const merchantDown = (async () => new Response("oops", { status: 500 })) as unknown as typeof fetch;
    expect(await deliverDue(h.gw, { fetch: merchantDown })).toEqual({ attempted: 1, delivered: 0 });
    expect(await dashboard()).not.toContain('id="att-notify"'); // one failure is not yet "failing"
    h.clock.advance(15);
    expect(await deliverDue(h.gw, { fetch: merchantDown })).toEqual({ attempted: 1, delivered: 0 });
    expect((await postJson(h, "/xpay/order/create", nativeCreate({ pay_type: "qqpay", money: "3.00" }))).body.code).not.toBe(200); // no qqpay account
    const failed = (await h.gw.store.browse.searchOrders({ status: 5, limit: 1, now: h.clock.now() }))[0]!;

    const html = await dashboard();
    expect(html).not.toContain('id="attention-none"');
    const summary = html.slice(html.indexOf('id="attention-summary"'), html.indexOf("</nav>", html.indexOf('id="attention-summary"')));
    for (const id of ["att-unmatched", "att-notify", "att-late", "att-failed"]) expect(summary).toMatch(new RegExp(`href="#${id}"><span>[^<]+</span> <b>1</b>`));
    const unmatched = part(html, "att-unmatched");
    expect(unmatched).toContain(`href="/admin/reports/${stray.body.data.report_id}"`);
    expect(unmatched).toContain('<td class="num">42.42</td>');
    expect(unmatched).toContain("xpay report list --outcome unmatched --money yes --pid 1001");
    const notify = part(html, "att-notify");
    expect(notify).toContain('href="/admin/merchants/1001#merchant-delivery"');
    expect(notify).toContain("<span>1 条</span>");
    expect(notify).toContain("HTTP 500");
    expect(notify).toContain('xpay notify resend 1001 --reason &quot;...&quot;');
    expect(notify).toContain("失败 2 次及以上");
    const latePart = part(html, "att-late");
    expect(latePart).toContain(`href="/admin/orders/${late.trade_no}"`);
    expect(latePart).toContain(`xpay order inspect ${late.trade_no}`);
    expect(latePart).toContain('<td class="nowrap">1 秒</td>'); // paid one second after expire_time, in the page's units
    const creation = part(html, "att-failed");
    expect(creation).toContain(`href="/admin/orders/${failed.tradeNo}"`);
    expect(creation).toContain(`xpay order inspect ${failed.tradeNo}`);
    expect(creation).toContain('<td class="num">3.00</td>');
    expect(creation).toContain(`<span class="nowrap">QQ 钱包</span><span> · ${failed.failReason}</span>`);

    // A week later the list is empty again (it looks back seven days).
    h.clock.advance(8 * 86400);
    cookie = (await h.session()).cookie;
    expect(await dashboard()).toContain('id="attention-none"');
  });
});

describe("failing notifications, grouped", () => {
  test("one row per merchant and error with its count and latest attempt, linked to the merchant's delivery health", async () => {
    await atTenTomorrow();
    await seed(h);
    await h.gw.store.setSetting("alert_notify_failures", "1");
    h.gw.forgetSettings();
    // Twelve paid orders whose merchant is down: the old list showed ten identical rows and "10+".
    for (let i = 0; i < 12; i++) {
      const o = await createOrder(h, { money: `${10 + i}.00`, notify_url: "http://127.0.0.1:9/notify" });
      expect((await amountReport(h, parseYuan(o.trade_amount)!)).body.data.outcome).toBe("matched");
    }
    const refused = (async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    }) as unknown as typeof fetch;
    expect((await deliverDue(h.gw, { fetch: refused })).attempted).toBe(12);
    const html = await dashboard();
    const summary = html.slice(html.indexOf('id="attention-summary"'), html.indexOf("</nav>", html.indexOf('id="attention-summary"')));
    expect(summary).toMatch(/href="#att-notify"><span>通知失败<\/span> <b>12<\/b>/);
    const notify = part(html, "att-notify");
    expect(notify.match(/<tr data-failing=/g)?.length).toBe(1);
    expect(notify).toContain('<span class="tag tag-danger">12</span>');
    expect(notify).toContain("<span>12 条</span>");
    expect(notify).toContain('href="/admin/merchants/1001#merchant-delivery"');
    // The error in the page's words, its code kept; Bun's English in the cell's title only.
    expect(notify).toContain('title="connect ECONNREFUSED 127.0.0.1:9" data-error>连接被拒绝：商户服务器没有在该端口监听（ECONNREFUSED）</td>');
    expect(notify).not.toContain("/admin/orders/");
    const en = await dashboard({ lang: "en" });
    expect(part(en, "att-notify")).toContain("<span>12 notification(s)</span>");
    expect(part(en, "att-notify")).toContain("Connection refused: nothing listens on the merchant&#x27;s port (ECONNREFUSED)");
  });
});

describe("monitoring clients and daily limits", () => {
  test("a phone is online after its heartbeat and offline after heartbeat_timeout, with the age of its last beat", async () => {
    await atTenTomorrow();
    const { account } = await seed(h);
    const beat = (name: string) => report(h, "/1001/heart", { client_name: name, channel_id: account.id }, { method: "GET" });
    expect((await beat("phone-1")).body.code).toBe(200);
    h.clock.advance(30);
    let html = await dashboard();
    let row = part(html, "clients").split('data-client="')[1]!;
    expect(row).toContain("phone-1");
    expect(row).toContain('<span class="tag tag-ok">在线</span>');
    expect(row).toContain("30 秒前");
    expect(part(html, "clients")).toContain("1 在线 · 0 离线");
    h.clock.advance(61); // 91 s: past the default 90
    html = await dashboard();
    row = part(html, "clients").split('data-client="')[1]!;
    expect(row).toContain('<span class="tag tag-danger">离线</span>');
    expect(row).toContain("1 分钟前");
    expect(part(html, "clients")).toContain("0 在线 · 1 离线");
    await h.gw.store.setSetting("heartbeat_timeout", "600");
    h.gw.forgetSettings();
    expect(part(await dashboard(), "clients")).toContain('<span class="tag tag-ok">在线</span>');
  });

  test("an account at 85 % of its daily limit is listed; one without a limit is not", async () => {
    await atTenTomorrow();
    await seed(h, { day: 2000 });
    await h.gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wxpay_qr", name: "No limit", qrcode: "wxp://f2f0002", now: h.clock.now() });
    let html = await dashboard();
    expect(html).toContain('id="limits-none"');
    await pay("15.00");
    expect(await dashboard()).toContain('id="limits-none"'); // 75 %
    await pay("2.00");
    await pay("5.00", { pay_type: "wxpay" });
    html = await dashboard();
    const limits = part(html, "day-limits");
    expect(limits).toContain("#1 Alipay A · 支付宝");
    expect(limits).toContain('<td class="num">17.00</td>');
    expect(limits).toContain('<td class="num">20.00</td>');
    expect(limits).toContain("85%");
    expect(limits).not.toContain("No limit");
  });
});

describe("text, not markup", () => {
  test("merchant, account and client names holding markup are escaped everywhere on the page", async () => {
    await atTenTomorrow();
    await h.gw.store.addMerchant({ pid: 1001, name: XSS, secret: "a1b2c3d4e5f60718293a4b5c6d7e8f90", now: h.clock.now() });
    const account = await h.gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: '<img src=x onerror="alert(2)">', qrcode: "https://qr.alipay.com/x", dayAmount: 1000, now: h.clock.now() });
    await report(h, "/1001/heart", { client_name: XSS, channel_id: account.id }, { method: "GET" });
    await pay("9.00");
    const html = await dashboard();
    expect(html).not.toContain(XSS);
    expect(html).not.toContain("<img src=x");
    expect(part(html, "by-merchant")).toContain("1001 &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(part(html, "day-limits")).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
    expect(part(html, "clients")).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("languages", () => {
  test("English is complete: no text key shows through, in either language", async () => {
    await atTenTomorrow();
    await seed(h);
    await pay("1.00");
    await amountReport(h, 777);
    const zh = await dashboard();
    const en = await dashboard({ lang: "en" });
    expect(en).toContain("Needs attention");
    expect(en).toContain("Income per hour, today");
    expect(en).toContain("Alipay");
    for (const html of [zh, en]) expect(html.replace(/<[^>]*>/g, " ")).not.toMatch(/\bdashboard\.[a-z_.]+/);
  });
});
