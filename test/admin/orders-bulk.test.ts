// Issue 28, the orders list's newer parts: search by payer IP, amount range (yuan) and paid time;
// the filter's count and totals; a notification column with a resend per row; bulk close and bulk
// resend of ticked rows (a reason required, each order audited, one summary entry); the CSV of the
// filter, streamed page by page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ordersCsv } from "../../src/core/browse/order-export.ts";
import type { BrowseStore } from "../../src/core/browse/store.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { seed } from "../helpers.ts";
import { createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("down", { status: 503 }) });
const no: Record<string, string> = {};
const HX = { headers: { "hx-request": "true" } };

beforeAll(async () => {
  h = await adminHarness();
  await seed(h);
  const notify = `http://127.0.0.1:${receiver.port}/n`;
  no.paidA = (await createOrder(h, { money: "12.00", clientip: "203.0.113.7", notify_url: notify })).trade_no;
  no.paidB = (await createOrder(h, { money: "30.00", clientip: "198.51.100.2", notify_url: "" })).trade_no;
  h.clock.advance(60);
  no.open1 = (await createOrder(h, { money: "5.00", clientip: "203.0.113.7", name: "=HYPERLINK(\"x\")" })).trade_no;
  no.open2 = (await createOrder(h, { money: "7.50" })).trade_no;
  expect((await payOrder(h.gw, no.paidA!)).kind).toBe("paid");
  expect((await payOrder(h.gw, no.paidB!)).kind).toBe("paid");
  expect((await deliverDue(h.gw)).attempted).toBe(1);
});
afterAll(() => {
  receiver.stop(true);
  h.close();
});

const rows = (html: string) => [...html.matchAll(/<tr data-trade-no="(\d+)"/g)].map((m) => m[1]!);
const row = (html: string, tradeNo: string) => html.slice(html.indexOf(`<tr data-trade-no="${tradeNo}"`)).split("</tr>")[0]!;

describe("filters and totals", () => {
  test("payer IP, amount range in yuan, paid time", async () => {
    expect(rows(await (await h.get("/admin/orders?ip=203.0.113.7")).text())).toEqual([no.open1!, no.paidA!]);
    expect(rows(await (await h.get("/admin/orders?amount_min=7.5&amount_max=¥12")).text())).toEqual([no.open2!, no.paidA!]);
    const today = new Date((h.clock.now() + 8 * 3600) * 1000).toISOString().slice(0, 10);
    expect(rows(await (await h.get(`/admin/orders?paid_from=${today}`)).text()).sort()).toEqual([no.paidA!, no.paidB!].sort());
  });

  test("bad values: 422 with the message under the field", async () => {
    for (const [q, message] of [["ip=a b", "请输入 IP 地址"], ["amount_min=abc", "金额以元为单位"], ["amount_min=10&amount_max=5", "最大金额不能小于最小金额。"], ["paid_from=yesterday", "请选择一个日期"]]) {
      const res = await h.get(`/admin/orders?${q}`);
      expect({ q, status: res.status }).toEqual({ q, status: 422 });
      expect(await res.text()).toContain(message!);
    }
  });

  test("the totals of the whole filter load after the page", async () => {
    const html = await (await h.get("/admin/orders?pid=1001")).text();
    expect(html).toContain('hx-get="/admin/orders/totals?pid=1001" hx-trigger="load"');
    const totals = await (await h.get("/admin/orders/totals?pid=1001", HX)).text();
    expect(totals).toContain("共 4 笔，订单金额 ¥54.50；其中已支付 2 笔，实收 ¥");
    expect(await (await h.get("/admin/orders/totals?ip=203.0.113.7&status=pending", HX)).text()).toContain("共 1 笔，订单金额 ¥5.00；其中已支付 0 笔");
  });
});

describe("notification column", () => {
  test("失败 N 次 with a resend, 无通知地址, and — for unpaid orders", async () => {
    const html = await (await h.get("/admin/orders")).text();
    expect(row(html, no.paidA!)).toContain("失败 1 次");
    expect(row(html, no.paidA!)).toContain(`action="/admin/orders/${no.paidA}/resend-row"`);
    expect(row(html, no.paidB!)).toContain("无通知地址");
    expect(row(html, no.open2!)).not.toContain("resend-row");
  });

  test("in English too", async () => {
    const html = await (await h.get("/admin/orders", { cookie: `${h.login.cookie}; xpay_lang=en` })).text();
    expect(row(html, no.paidA!)).toContain("Failed 1×");
    expect(row(html, no.paidB!)).toContain("No notify URL");
    expect(html).toContain("Close the selected pending orders");
    expect(html).toContain("Export CSV");
  });

  test("resend from the list: the cell answers 已重新排队, audited", async () => {
    const res = await h.post(`/admin/orders/${no.paidA}/resend-row`, {}, HX);
    expect(res.status).toBe(200);
    const cell = await res.text();
    expect(cell).toContain("已重新排队");
    expect(cell).toContain(`id="notify-${no.paidA}"`);
    expect((await auditRows(h)).at(-1)).toMatchObject({ action: "notification.replay", target: `order:${no.paidA}` });
  });
});

describe("bulk actions", () => {
  test("refused without a reason or a selection: 422, message under the field, nothing changed", async () => {
    const before = JSON.stringify([await h.gw.store.getOrder(no.open1!), (await auditRows(h)).length]);
    const a = await h.post("/admin/orders/bulk?pid=1001", { action: "close", trade_no: no.open1!, reason: "" });
    expect(a.status).toBe(422);
    expect(await a.text()).toContain("请填写原因（至少 2 个字）。");
    const b = await h.post("/admin/orders/bulk", { action: "close", reason: "duplicates" });
    expect(b.status).toBe(422);
    expect(await b.text()).toContain("请先勾选订单。");
    expect(JSON.stringify([await h.gw.store.getOrder(no.open1!), (await auditRows(h)).length])).toBe(before);
  });

  test("close the ticked pending orders: each audited with the reason, a paid one skipped, one summary entry", async () => {
    const res = await h.post("/admin/orders/bulk?pid=1001", [["action", "close"], ["reason", "test orders"], ["trade_no", no.open1!], ["trade_no", no.open2!], ["trade_no", no.paidA!]]);
    expect(res.status).toBe(303);
    const to = res.headers.get("location")!;
    expect(to).toBe("/admin/orders?pid=1001&done=close&n=2&skipped=1#bulk-done");
    expect((await h.gw.store.getOrder(no.open1!))!.status).toBe(3);
    expect((await h.gw.store.getOrder(no.open2!))!.status).toBe(3);
    expect(await (await h.get(to.split("#")[0]!)).text()).toContain("已关闭 2 笔；1 笔未关闭（已不是待支付）。");
    const audit = (await auditRows(h)).slice(-3);
    expect(audit.map((a) => [a.action, a.reason])).toEqual([["order.close", "test orders"], ["order.close", "test orders"], ["order.bulk_close", "test orders"]]);
    expect(audit[2]!.after).toMatchObject({ done: 2, skipped: 1 });
  });

  test("resend the ticked orders' notifications", async () => {
    const res = await h.post("/admin/orders/bulk", [["action", "resend"], ["reason", "merchant fixed"], ["trade_no", no.paidA!], ["trade_no", no.paidB!]]);
    expect(res.headers.get("location")).toBe("/admin/orders?done=resend&n=1&skipped=1#bulk-done");
    expect((await auditRows(h)).at(-1)).toMatchObject({ action: "notification.bulk_resend", reason: "merchant fixed" });
  });
});

describe("CSV export", () => {
  test("the filter's orders as CSV: yuan, local times, formulas defused", async () => {
    const res = await h.get("/admin/orders/export.csv?ip=203.0.113.7");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="orders-\d{14}\.csv"$/);
    const lines = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("\uFEFFtrade_no,out_trade_no,pid,family,pay_type,name,amount_yuan,trade_amount_yuan,status,created_at,paid_at,clientip,account_id");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${no.open1},`);
    expect(lines[1]).toContain(`,"'=HYPERLINK(""x"")",5.00,`);
    expect(lines[2]).toContain(",12.00,");
    expect((await h.get("/admin/orders/export.csv?amount_min=x")).status).toBe(422);
    expect((await h.get("/admin/orders/export.csv", { cookie: null })).status).not.toBe(200);
  });

  test("streamed: the header first, then one page per pull (at most one read ahead)", async () => {
    const calls: number[] = [];
    const browse = { searchOrders: async (q) => (calls.push(q.limit), h.gw.store.browse.searchOrders(q)) } as BrowseStore;
    const reader = ordersCsv(browse, {}, { now: h.clock.now(), zone: "Asia/Shanghai", pageSize: 3 }).getReader();
    const first = new TextDecoder("utf-8", { ignoreBOM: true }).decode((await reader.read()).value);
    expect(first.startsWith("\uFEFFtrade_no,")).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(1);
    let text = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value);
    expect(text.trim().split("\r\n")).toHaveLength(4);
    expect(calls).toEqual([3, 3]);
  });
});
