// Issue 17, reports: the list with its outcome / kind / merchant filter and id paging; a report's
// page with its raw content (JSON formatted, escaped) and how it was read; for money that matched
// no order, the assign form with the candidate orders. Assigning pays the order once through the
// settlement unit, audited; every refusal is inline (422) and changes nothing.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ReportRecord } from "../../src/core/store.ts";
import { seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
beforeEach(async () => {
  h = await adminHarness();
  await seed(h);
});
afterEach(() => h.close());

const HX = { headers: { "hx-request": "true" } };
const ids = (html: string) => [...html.matchAll(/<tr data-report="(\d+)"/g)].map((m) => Number(m[1]));

async function unmatched(cents: number): Promise<number> {
  const r = await amountReport(h, cents);
  expect(r.body.data.outcome).toBe("unmatched");
  return r.body.data.report_id as number;
}

function insert(r: Partial<ReportRecord>) {
  return h.gw.store.insertReport({
    kind: "message", pid: 1001, client: "Redmi-9", raw: "{}", amount: 100, payType: "alipay", channelCode: "", dedupeKey: null,
    outcome: "unmatched", reason: "no pending order of this amount", tradeNo: null, createdAt: h.clock.now(), ...r,
  });
}

/** What a refused assignment must leave as it was. */
async function state(reportId: number, tradeNo: string) {
  return JSON.stringify({ report: await h.gw.store.browse.getReport(reportId), order: await h.gw.store.getOrder(tradeNo), n: await h.gw.store.getNotification(tradeNo), audit: await auditRows(h) });
}

describe("the list", () => {
  test("newest first; outcome, kind and merchant filters; id paging with next and newest", async () => {
    for (let i = 0; i < 52; i++) await insert({ amount: 100 + i, outcome: i % 2 ? "unmatched" : "matched" });
    await insert({ kind: "heart", amount: null, outcome: "accepted" });
    const first = await (await h.get("/admin/reports")).text();
    expect(ids(first)).toHaveLength(50);
    expect(ids(first)[0]).toBe(53);
    const next = first.match(/<a href="([^"]+)" rel="next"/)![1]!;
    expect(next).toBe("/admin/reports?before=4");
    const second = await (await h.get(next)).text();
    expect(ids(second)).toEqual([3, 2, 1]);
    expect(second).toContain('<a href="/admin/reports" rel="prev"');
    expect(ids(await (await h.get("/admin/reports?kind=heart")).text())).toEqual([53]);
    const un = await (await h.get("/admin/reports?outcome=unmatched&pid=1001")).text();
    expect(ids(un)).toHaveLength(26);
    expect(un).toContain('<option value="unmatched" selected>未匹配</option>');
    expect(un).toContain('<span class="tag tag-warn" data-outcome="unmatched">未匹配</span>');
  });

  test("a bad filter: 422 with the message under its field, no rows", async () => {
    await insert({});
    for (const [q, field] of [["outcome=paid", "outcome"], ["kind=sms", "kind"], ["pid=77", "pid"], ["pid=x", "pid"]] as const) {
      const res = await h.get(`/admin/reports?${q}`);
      expect({ q, status: res.status }).toEqual({ q, status: 422 });
      const html = await res.text();
      expect(html).toContain(`id="f-${field}-error"`);
      expect(ids(html)).toEqual([]);
    }
    const forged = await h.get("/admin/reports?before=1;DROP");
    expect(forged.status).toBe(422);
    expect(await forged.text()).toContain("分页位置无效，请从最新一页开始。");
  });

  test("empty: says what brings reports", async () => {
    expect(await (await h.get("/admin/reports")).text()).toContain("还没有上报。监控端开始上报收款通知或心跳后，会显示在这里。");
  });
});

describe("a report's page", () => {
  test("JSON content formatted and escaped; text content as received; how it was read", async () => {
    const json = (await insert({ raw: JSON.stringify({ title: "<script>alert(1)</script>", msg: "你已成功收款1.00元" }), client: "<b>phone</b>" })).id;
    const html = await (await h.get(`/admin/reports/${json}`)).text();
    expect(html).toContain("JSON，已格式化");
    expect(html).toContain('{\n  &quot;title&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;,\n  &quot;msg&quot;: &quot;你已成功收款1.00元&quot;\n}');
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;b&gt;phone&lt;/b&gt;");
    expect(html).toContain("no pending order of this amount");
    const text = (await insert({ raw: "amount=100&sign=<x>" })).id;
    const t = await (await h.get(`/admin/reports/${text}`)).text();
    expect(t).toContain("原文");
    expect(t).toContain("amount = 100\nsign = &lt;x&gt;"); // a form body: one decoded field per line
    for (const path of ["/admin/reports/999", "/admin/reports/abc", "/admin/reports/1e3"]) expect((await h.get(path)).status).toBe(404);
  });

  test("a matched report links its order and offers no assignment; a heartbeat neither", async () => {
    const o = await createOrder(h);
    const r = await amountReport(h, 1000);
    const html = await (await h.get(`/admin/reports/${r.body.data.report_id}`)).text();
    expect(html).toContain(`<a href="/admin/orders/${o.trade_no}" id="report-order">${o.trade_no}</a>`);
    expect(html).not.toContain('id="assign-form"');
    const heart = (await insert({ kind: "heart", amount: null, outcome: "accepted" })).id;
    expect(await (await h.get(`/admin/reports/${heart}`)).text()).not.toContain('id="assign-form"');
  });

  test("unmatched money: the form and the candidates, nearest amount first, only orders it could pay", async () => {
    const near = await createOrder(h, { money: "10.00" });
    const far = await createOrder(h, { money: "30.00" });
    await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "b".repeat(32), now: h.clock.now() });
    const closed = await createOrder(h, { money: "10.01" });
    await h.gw.store.closeOrder(closed.trade_no, h.clock.now());
    await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx", name: "WeChat", qrcode: "wxp://x", now: h.clock.now() });
    const wx = await createOrder(h, { money: "9.99", pay_type: "wxpay" }); // nearest amount, another pay type: last
    const id = await unmatched(999);
    h.clock.advance(5);
    await createOrder(h, { money: "9.98" }); // created after the money arrived
    const html = await (await h.get(`/admin/reports/${id}`)).text();
    expect(html).toContain('id="assign-form"');
    const candidates = [...html.matchAll(/<tr data-trade-no="(\d+)"/g)].map((m) => m[1]);
    expect(candidates).toEqual([near.trade_no, far.trade_no, wx.trade_no]);
    expect(html).toContain(`data-fill="f-trade_no" data-focus="f-reason" data-value="${near.trade_no}"`);
  });

  test("each candidate says its pay type, account, creation time and distance from the payment (issue 28)", async () => {
    const below = await createOrder(h, { money: "66.60" });
    const above = await createOrder(h, { money: "66.70" });
    await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx", name: "WeChat", qrcode: "wxp://x", now: h.clock.now() });
    const wx = await createOrder(h, { money: "66.65", pay_type: "wxpay" }); // the same amount, another pay type
    const id = await unmatched(6665);
    const html = await (await h.get(`/admin/reports/${id}`)).text();
    const row = (no: string) => html.slice(html.indexOf(`<tr data-trade-no="${no}"`), html.indexOf("</tr>", html.indexOf(`<tr data-trade-no="${no}"`)));
    expect(row(below.trade_no)).toContain('<small class="gap" data-gap>-¥0.05</small>');
    expect(row(above.trade_no)).toContain('<small class="gap" data-gap>+¥0.05</small>');
    expect(row(wx.trade_no)).toContain('<small class="gap gap-same" data-gap>相同</small>');
    expect(row(below.trade_no)).toContain('<td class="nowrap">支付宝</td>');
    expect(row(wx.trade_no)).toContain('<td class="nowrap">微信支付</td>');
    expect(row(below.trade_no)).toContain("<td>#1 Alipay A</td>");
    expect(row(wx.trade_no)).toMatch(/<td>#\d+ WeChat<\/td>/);
    expect(row(below.trade_no)).toMatch(/<time datetime="[^"]+" title="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d<\/time>/);
    expect(await (await h.get(`/admin/reports/${id}`, { cookie: `${h.login.cookie}; xpay_lang=en` })).text()).toContain("data-gap>same</small>");
  });

  test("JSON carried as a string inside the raw JSON is shown as JSON, still escaped", async () => {
    const content = JSON.stringify({ title: "<i>支付宝</i>", text: "成功收款66.60元" });
    const id = (await insert({ raw: JSON.stringify({ from: "com.eg.android.AlipayGphone", content }) })).id;
    const html = await (await h.get(`/admin/reports/${id}`)).text();
    expect(html).toContain("&quot;content&quot;: {\n    &quot;title&quot;: &quot;&lt;i&gt;支付宝&lt;/i&gt;&quot;,");
    expect(html).not.toContain("\\&quot;");
    expect(html).not.toContain("<i>支付宝");
  });
});

describe("assign", () => {
  test("pays the order once through the settlement unit, audited; a second assignment is refused", async () => {
    const o = await createOrder(h, { money: "10.00", notify_url: "http://127.0.0.1:9/n" });
    const id = await unmatched(999);
    const res = await h.post(`/admin/reports/${id}/assign`, { trade_no: o.trade_no, reason: "付款人少付 0.01 元" }, HX);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.startsWith('<div id="report-view"')).toBe(true);
    expect(html).toContain(`已分配：订单 ${o.trade_no} 已支付，商户通知已排队。`);
    expect(html).not.toContain('id="assign-form"');
    expect((await h.gw.store.getOrder(o.trade_no))?.status).toBe(2);
    expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("pending");
    expect(await h.gw.store.browse.getReport(id)).toMatchObject({ outcome: "matched", tradeNo: o.trade_no });
    const row = (await auditRows(h)).at(-1)!;
    expect(row).toMatchObject({
      actor: "alice", action: "report.assign", target: `order:${o.trade_no}`, reason: "付款人少付 0.01 元",
      before: { status: "pending", report_id: id, report_outcome: "unmatched", report_amount: 999 }, after: { status: "paid", report_id: id, report_outcome: "matched" },
    });
    // The order's page tells the story.
    const page = await (await h.get(`/admin/orders/${o.trade_no}`)).text();
    expect(page).toContain("分配上报");
    expect(page).toContain("付款人少付 0.01 元");

    const before = await state(id, o.trade_no);
    const again = await h.post(`/admin/reports/${id}/assign`, { trade_no: o.trade_no, reason: "again" }, HX);
    expect(again.status).toBe(422);
    expect(await state(id, o.trade_no)).toBe(before);
    const other = await unmatched(998);
    const second = await h.post(`/admin/reports/${other}/assign`, { trade_no: o.trade_no, reason: "also this one" }, HX);
    expect(second.status).toBe(422);
    expect(await second.text()).toContain("订单已支付，未做任何更改。");
    expect((await h.gw.store.browse.getReport(other))?.outcome).toBe("unmatched");
  });

  test("without script: 303 back to the report with the notice", async () => {
    const o = await createOrder(h);
    const id = await unmatched(999);
    const res = await h.post(`/admin/reports/${id}/assign`, { trade_no: o.trade_no, reason: "short paid" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/reports/${id}?done=${o.trade_no}`);
    expect(await (await h.get(res.headers.get("location")!)).text()).toContain(`已分配：订单 ${o.trade_no} 已支付`);
    expect(await (await h.get(`/admin/reports/${id}?done=20260101000000000000`)).text()).not.toContain('id="assign-done"');
  });

  test("bad inputs and refusals: 422 inline, the typed values kept, nothing changed", async () => {
    const o = await createOrder(h);
    const id = await unmatched(999);
    h.clock.advance(5);
    const later = await createOrder(h, { money: "11.00" });
    const cases: [Record<string, string>, string, string][] = [
      [{ trade_no: "", reason: "short paid" }, 'id="f-trade_no-error"', "请输入 20 位平台订单号，或从下方候选订单中选择。"],
      [{ trade_no: "<script>", reason: "short paid" }, 'id="f-trade_no-error"', "请输入 20 位平台订单号"],
      [{ trade_no: "20260101000000000000", reason: "short paid" }, 'id="f-trade_no-error"', "没有这个订单。"],
      [{ trade_no: o.trade_no, reason: "" }, 'id="f-reason-error"', "请填写原因"],
      [{ trade_no: o.trade_no, reason: "x".repeat(201) }, 'id="f-reason-error"', "原因最多 200 个字符。"],
      [{ trade_no: later.trade_no, reason: "short paid" }, 'id="assign-refused"', "该订单在这笔钱到账之后才创建，不能分配。"],
    ];
    const before = await state(id, o.trade_no);
    for (const [form, where, message] of cases) {
      const res = await h.post(`/admin/reports/${id}/assign`, form, HX);
      expect({ form, status: res.status }).toEqual({ form, status: 422 });
      const html = await res.text();
      expect(html).toContain(where);
      expect(html).toContain(message);
      expect(html).not.toContain("<script>\"");
    }
    expect(await (await h.post(`/admin/reports/${id}/assign`, { trade_no: "<script>", reason: "r" }, HX)).text()).toContain('value="&lt;script&gt;"');
    expect(await state(id, o.trade_no)).toBe(before);
    expect((await h.gw.store.getOrder(later.trade_no))?.status).toBe(1);
    expect((await h.post("/admin/reports/999/assign", { trade_no: o.trade_no, reason: "short paid" })).status).toBe(404);
  });

  test("a report of another merchant cannot pay this merchant's order", async () => {
    await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "b".repeat(32), now: h.clock.now() });
    const o = await createOrder(h);
    const id = (await insert({ pid: 1002, amount: 1000 })).id;
    const before = await state(id, o.trade_no);
    const res = await h.post(`/admin/reports/${id}/assign`, { trade_no: o.trade_no, reason: "wrong shop" }, HX);
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("这条上报属于另一个商户，不能支付这个订单。");
    expect(await state(id, o.trade_no)).toBe(before);
  });
});
