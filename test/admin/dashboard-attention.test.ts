// Issue 28 items 1, 2, 4 and 8 and the "also" list, in-process on a temp database through the
// real routes: a chip for phones offline linked to the phone, the monitoring panel above the long
// lists with its names linked; money with no order apart from messages that were no payment
// (folded, no chip); a 补单 or an assignment is no late payment; the order page's notification
// text as the outbox row really is; a 404 keeps the menu; first steps on a new gateway.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { assignReportToOrder, confirmPaymentByHand } from "../../src/core/manual-payment.ts";
import { parseYuan } from "../../src/core/money.ts";
import { seed } from "../helpers.ts";
import { amountReport, createOrder, report, smsContent } from "../report/util.ts";
import { type AdminHarness, adminHarness } from "./support.ts";

let h: AdminHarness;
let cookie = "";
beforeEach(async () => {
  h = await adminHarness();
  cookie = h.login.cookie;
});
afterEach(() => h.close());

const get = async (path: string) => {
  const res = await h.get(path, { cookie });
  return { status: res.status, html: await res.text() };
};
const dashboard = async () => (await get("/admin")).html;
/** After a long wait the first session has idled out. */
const relogin = async () => (cookie = (await h.session()).cookie);
const chips = (html: string) => html.slice(html.indexOf('id="attention-summary"'), html.indexOf("</nav>", html.indexOf('id="attention-summary"')));
const noise = (i: number) => report(h, "/1001", { from: "shop-phone", content: smsContent("蚂蚁森林", `你收取了好友 ${i}g 能量`) });

describe("phones offline at a glance", () => {
  test("a chip counts the phones offline and links to the phone (one) or the list (several); the panel sits above the long lists, names linked", async () => {
    const { account } = await seed(h);
    const beat = (name: string) => report(h, "/1001/heart", { client_name: name, channel_id: account.id }, { method: "GET" });
    expect((await beat("Redmi 备用机")).body.code).toBe(200);
    expect((await beat("Xiaomi 13")).body.code).toBe(200);
    let html = await dashboard();
    expect(html).not.toContain('id="chip-offline"');
    const [first, second] = await h.gw.store.listClients();
    h.clock.advance(60);
    expect((await beat(second!.name)).body.code).toBe(200);
    h.clock.advance(31); // the first is silent 91 s: past heartbeat_timeout (90)
    html = await dashboard();
    expect(chips(html)).toContain(`<a class="dash-alert" href="/admin/clients/${first!.id}" id="chip-offline"><span>1 台手机离线</span></a>`);
    h.clock.advance(60);
    html = await dashboard();
    expect(chips(html)).toContain('<a class="dash-alert" href="/admin/clients" id="chip-offline"><span>2 台手机离线</span></a>');
    // Above the charts and the attention list; each name opens the client's page.
    const at = (id: string) => html.indexOf(`id="${id}"`);
    expect(at("clients")).toBeGreaterThan(at("attention-summary"));
    expect(at("clients")).toBeLessThan(html.indexOf('class="dash-chart-box"'));
    expect(at("clients")).toBeLessThan(at("attention"));
    for (const c of [first!, second!]) expect(html).toContain(`<td class="dash-name"><a href="/admin/clients/${c.id}">${c.name}</a></td>`);
    const en = await (await h.get("/admin", { cookie: `${cookie}; xpay_lang=en` })).text();
    expect(en).toContain("2 phone(s) offline");
  });
});

describe("money with no order, and messages that were no payment", () => {
  test("¥200 and ¥66.60 stay listed under twelve newer notices; the chip counts them only; the notices are folded with their own link", async () => {
    await seed(h);
    for (const cents of [20000, 6660]) expect((await amountReport(h, cents)).body.data.outcome).toBe("unmatched");
    for (let i = 0; i < 12; i++) await noise(i);
    const html = await dashboard();
    expect(chips(html)).toMatch(/href="#att-unmatched"><span>未匹配的收款<\/span> <b>2<\/b>/);
    const money = html.slice(html.indexOf('id="att-unmatched"'), html.indexOf('id="att-not-payments"'));
    expect(money).toContain('<td class="num">200.00</td>');
    expect(money).toContain('<td class="num">66.60</td>');
    expect(money).not.toContain("—");
    expect(html).toContain('<details class="dash-att dash-quiet" id="att-not-payments"><summary><span>不是付款的消息</span> <span class="tag">10+</span></summary>');
    expect(html).toContain('href="/admin/reports?outcome=unmatched&money=no"');
    // The reports page narrows the same way.
    const noPay = (await get("/admin/reports?outcome=unmatched&money=no")).html;
    expect(noPay.match(/<tr data-report=/g)).toHaveLength(12);
    expect(noPay).not.toContain("200.00");
    const paid = (await get("/admin/reports?outcome=unmatched&money=yes")).html;
    expect(paid.match(/<tr data-report=/g)).toHaveLength(2);
    expect(paid).toContain("200.00");
    expect((await get("/admin/reports?money=maybe")).status).toBe(422);
  });
});

describe("manual fixes are not late payments", () => {
  test("a 补单 and an assignment 99 h after the expiry: no badge, not on the late list; a payment reported late is", async () => {
    await seed(h);
    const confirmed = await createOrder(h, { money: "10.00" });
    const assigned = await createOrder(h, { money: "20.00" });
    const late = await createOrder(h, { money: "30.00" });
    const id = (await amountReport(h, 1999)).body.data.report_id as number; // 19.99 for the 20.00 order, in time
    h.clock.advance(900 + 120);
    expect((await amountReport(h, parseYuan(late.trade_amount)!)).body.data.outcome).toBe("matched");
    h.clock.advance(99 * 3600);
    const act = { actor: "alice", reason: "支付宝账单核对过" };
    expect((await confirmPaymentByHand(h.gw, confirmed.trade_no, act)).ok).toBe(true);
    expect((await assignReportToOrder(h.gw, id, assigned.trade_no, act)).kind).toBe("assigned");
    await relogin();
    for (const no of [confirmed.trade_no, assigned.trade_no]) expect((await get(`/admin/orders/${no}`)).html).not.toContain("超时后到账");
    expect((await get(`/admin/orders/${late.trade_no}`)).html).toContain("超时后到账");
    // 99 h ago is inside the dashboard's 7 days: the late one is listed, the two fixes are not.
    const html = await dashboard();
    const lateList = html.slice(html.indexOf('id="att-late"'));
    expect(lateList).toContain(late.trade_no);
    expect(lateList).not.toContain(confirmed.trade_no);
    expect(lateList).not.toContain(assigned.trade_no);
    expect(chips(html)).toMatch(/href="#att-late"><span>[^<]+<\/span> <b>1<\/b>/);
  });
});

describe("what the order page says about its notification", () => {
  test("an unpaid order with a notify URL is not said to have none; 13 failures read as such, not 待发送", async () => {
    await seed(h);
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    let html = (await get(`/admin/orders/${o.trade_no}`)).html;
    expect(html).not.toContain("没有异步通知地址");
    expect(html).toContain("订单支付后，xpay 会把异步通知发到上面的异步通知地址。");
    const bare = await createOrder(h, { money: "11.00" });
    expect((await get(`/admin/orders/${bare.trade_no}`)).html).toContain("该订单没有异步通知地址");
    expect((await amountReport(h, parseYuan(o.trade_amount)!)).body.data.outcome).toBe("matched");
    const n = (await h.gw.store.getNotification(o.trade_no))!;
    html = (await get(`/admin/orders/${o.trade_no}`)).html;
    expect(html).toContain('<p class="hint" id="notify-state"><span>待发送</span>');
    const attempt = { attemptedAt: h.clock.nowMs(), durationMs: 5, httpStatus: null, body: "", error: "ECONNREFUSED", acknowledged: false };
    for (let i = 0; i < 13; i++) await h.gw.store.recordNotificationAttempt(n.id, { attempt, status: "pending", nextAttemptAt: h.clock.nowMs() + 60_000 });
    html = (await get(`/admin/orders/${o.trade_no}`)).html;
    expect(html).toContain('<p class="hint" id="notify-state"><span>失败 13 次</span><span> · <span>下次重试</span>');
    expect(html).not.toContain("<span>待发送</span>");
    await h.gw.store.recordNotificationAttempt(n.id, { attempt, status: "failed", nextAttemptAt: 0 });
    expect((await get(`/admin/orders/${o.trade_no}`)).html).toContain("<span>已放弃：失败 14 次，不再自动重试</span>");
  });
});

describe("a 404 and a new gateway", () => {
  test("a page that does not exist keeps the menu for an operator; a stranger still gets no menu", async () => {
    const { status, html } = await get("/admin/no-such-page");
    expect(status).toBe(404);
    expect(html).toContain('<nav class="sidenav"');
    expect(html).toContain('id="error-page"');
    const merchant = await get("/admin/merchants/9999");
    expect(merchant.status).toBe(404);
    expect(merchant.html).toContain('<nav class="sidenav"');
    const stranger = await h.get("/admin/no-such-page", { cookie: null });
    expect(await stranger.text()).not.toContain('<nav class="sidenav"');
  });

  test("first steps: each links where it is done and goes once done; the card goes with the last", async () => {
    const steps = (html: string) => [...html.matchAll(/<li id="step-(\w+)"><a href="([^"]+)">/g)].map((m) => [m[1], m[2]]);
    expect(steps(await dashboard())).toEqual([
      ["account", "/admin/accounts/new"], ["phone", "/admin/clients/setup"], ["merchant", "/admin/merchants#merchant-add"], ["payment", "/admin/orders"],
    ]);
    const { account } = await seed(h); // a merchant and its account
    let html = await dashboard();
    expect(steps(html).map(([k]) => k)).toEqual(["phone", "payment"]);
    expect(html).toContain("已完成 2/4");
    await report(h, "/1001/heart", { client_name: "phone-1", channel_id: account.id }, { method: "GET" });
    const o = await createOrder(h);
    expect((await amountReport(h, parseYuan(o.trade_amount)!)).body.data.outcome).toBe("matched");
    html = await dashboard();
    expect(html).not.toContain('id="first-steps"');
  });
});
