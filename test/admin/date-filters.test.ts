// The console's date filters: quick ranges (今天 / 昨天 / 近 7 天 / 本月) resolved on the server in the
// operator's zone (Asia/Shanghai here, at 00:30 on the first of a month, when UTC still says the last
// day of the month before), date pickers on every list with a date filter (orders, reports, outbox,
// audit), and a bad date or range name a 422 with the message under its field, never a 500.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { audit, CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { applyQuickRange, parseDateRange, quickRangeDates } from "../../src/core/browse/date-range.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness } from "./support.ts";

const ZONE = "Asia/Shanghai";
const at = (iso: string) => Date.parse(iso) / 1000;
// 2026-12-01 00:30 in Shanghai: still 2026-11-30 in UTC.
const NOW = at("2026-11-30T16:30:00Z");
// A: 11-24 23:00 (before the last 7 days), B: 11-25 10:00, C: 11-30 23:50 (yesterday, merchant 1002), D: 12-01 00:10 (today).
const TIMES = { A: at("2026-11-24T15:00:00Z"), B: at("2026-11-25T02:00:00Z"), C: at("2026-11-30T15:50:00Z"), D: at("2026-11-30T16:10:00Z") };
type Name = keyof typeof TIMES;

let h: AdminHarness;
let cookie = "";
const trade: Record<string, string> = {};
const reportId: Record<string, string> = {};

beforeAll(async () => {
  h = await adminHarness();
  await seed(h);
  await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: (await h.gw.store.getMerchant(1001))!.secret, now: h.clock.now() });
  await h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "shared", name: "Shared", qrcode: "https://qr.alipay.com/shared", now: h.clock.now() });
  let cents = 77_700;
  for (const [name, t] of Object.entries(TIMES) as [Name, number][]) {
    h.clock.advance(t - h.clock.now());
    const o = await createOrder(h, { money: "3.00", pid: name === "C" ? "1002" : "1001", notify_url: "http://127.0.0.1:9/n", out_trade_no: `DF-${name}` });
    expect((await payOrder(h.gw, o.trade_no)).kind).toBe("paid");
    trade[name] = o.trade_no;
    const r = await amountReport(h, cents++);
    expect(r.body.data.outcome).toBe("unmatched");
    reportId[name] = String(r.body.data.report_id ?? r.body.data.id);
    await audit(h.gw, { actor: CLI_ACTOR, action: "test.mark", target: `mark:${name}` });
  }
  h.clock.advance(NOW - h.clock.now());
  cookie = (await h.session()).cookie;
});
afterAll(() => h.close());

async function get(path: string) {
  const res = await h.get(path, { cookie });
  return { status: res.status, html: await res.text() };
}
const names = (html: string, re: RegExp, ids: Record<string, string>) => {
  const found = new Set([...html.matchAll(re)].map((m) => m[1]!));
  return (Object.keys(ids) as Name[]).filter((n) => found.has(ids[n]!));
};
const orderRows = (html: string) => names(html, /<tr data-trade-no="(\d+)"/g, trade);
const outboxRows = (html: string) => names(html, /<tr data-trade-no="(\d+)"/g, trade);
const auditRows = (html: string) => [...html.matchAll(/>mark:([A-D])</g)].map((m) => m[1]!).sort();

describe("quick ranges in the operator's zone", () => {
  test("at 00:30 on 1 December in Shanghai: today, yesterday, the last 7 days and this month are local days", () => {
    expect(quickRangeDates("today", NOW, ZONE)).toEqual({ from: "2026-12-01", to: "2026-12-01" });
    expect(quickRangeDates("yesterday", NOW, ZONE)).toEqual({ from: "2026-11-30", to: "2026-11-30" });
    expect(quickRangeDates("7d", NOW, ZONE)).toEqual({ from: "2026-11-25", to: "2026-12-01" });
    expect(quickRangeDates("month", NOW, ZONE)).toEqual({ from: "2026-12-01", to: "2026-12-01" });
    // The bounds: local midnights (16:00 UTC the day before), "to" the start of the next local day.
    const today = parseDateRange("2026-12-01", "2026-12-01", ZONE);
    expect([today.from, today.to]).toEqual([at("2026-11-30T16:00:00Z"), at("2026-12-01T16:00:00Z")]);
    const week = parseDateRange("2026-11-25", "2026-12-01", ZONE);
    expect([week.from, week.to]).toEqual([at("2026-11-24T16:00:00Z"), at("2026-12-01T16:00:00Z")]);
    // Ten minutes earlier it was still November there: this month is the whole of November so far.
    expect(quickRangeDates("month", at("2026-11-30T15:50:00Z"), ZONE)).toEqual({ from: "2026-11-01", to: "2026-11-30" });
    // New York at the same instant is on 30 November.
    expect(quickRangeDates("today", NOW, "America/New_York")).toEqual({ from: "2026-11-30", to: "2026-11-30" });
  });

  test("a range replaces the typed dates and keeps the rest; an unknown one is a problem", () => {
    const r = applyQuickRange(new URLSearchParams("pid=1001&from=2020-01-01&range=yesterday"), { from: "from", to: "to" }, NOW, ZONE);
    expect(r.query.toString()).toBe("pid=1001&from=2026-11-30&to=2026-11-30");
    expect(applyQuickRange(new URLSearchParams("range=lastyear"), { from: "from", to: "to" }, NOW, ZONE).problem?.code).toBe("bad_range");
  });
});

describe("orders", () => {
  test("today, yesterday, last 7 days, this month: the right orders, the dates in the pickers", async () => {
    const today = await get("/admin/orders?range=today");
    expect(today.status).toBe(200);
    expect(orderRows(today.html)).toEqual(["D"]);
    expect(today.html).toContain('<input id="f-from" name="from" type="date" value="2026-12-01"/>');
    expect(today.html).toContain('<input id="f-to" name="to" type="date" value="2026-12-01"/>');
    expect(today.html).toMatch(/<a class="btn btn-small btn-primary" href="\/admin\/orders\?range=today" aria-current="true" data-range="today">今天<\/a>/);
    expect(orderRows((await get("/admin/orders?range=yesterday")).html)).toEqual(["C"]);
    expect(orderRows((await get("/admin/orders?range=7d")).html).sort()).toEqual(["B", "C", "D"]);
    expect(orderRows((await get("/admin/orders?range=month")).html)).toEqual(["D"]);
  });

  test("the links keep the other filter values, and the page after a range carries its dates", async () => {
    const { html } = await get("/admin/orders?pid=1001&status=paid&from=2020-01-01&range=7d");
    expect(orderRows(html).sort()).toEqual(["B", "D"]);
    expect(html).toContain('href="/admin/orders?status=paid&amp;pid=1001&amp;range=yesterday"');
    expect(html.replaceAll("&amp;", "&")).toContain('href="/admin/orders/export.csv?status=paid&pid=1001&from=2026-11-25&to=2026-12-01"');
  });

  test("paid dates are pickers too; a value with a time keeps it in a datetime-local picker", async () => {
    const { status, html } = await get("/admin/orders?paid_from=2026-11-30&paid_to=2026-11-30");
    expect(status).toBe(200);
    expect(orderRows(html)).toEqual(["C"]);
    const timed = await get(`/admin/orders?from=${encodeURIComponent("2026-11-30 23:55")}`);
    expect(orderRows(timed.html)).toEqual(["D"]);
    expect(timed.html).toContain('<input id="f-from" name="from" type="datetime-local" value="2026-11-30T23:55"/>');
    expect(orderRows((await get("/admin/orders?from=2026-11-30T23:55")).html)).toEqual(["D"]);
    expect(html).not.toMatch(/placeholder="\d{4}-\d{2}-\d{2}"/);
  });

  test("an invalid date or range name: 422, the message under the field, no rows", async () => {
    for (const [q, field, message] of [
      ["from=2026-11-31", "from", "请选择一个日期（或日期和时间）。"],
      ["to=yesterday", "to", "请选择一个日期（或日期和时间）。"],
      ["from=2026-12-01&to=2026-11-30", "to", "结束日期不能早于开始日期。"],
      ["range=lastyear", "from", "没有这个快捷范围：可选今天、昨天、近 7 天、本月。"],
      ["paid_from=2026-11-30%2025:00", "paid_from", "请选择一个日期（或日期和时间）。"],
    ] as const) {
      const r = await get(`/admin/orders?${q}`);
      expect(r.status).toBe(422);
      expect(r.html).toContain(`<p class="field-error" id="f-${field}-error">${message}</p>`);
      expect(orderRows(r.html)).toEqual([]);
    }
    // The bad value stays visible as typed (a date picker would show it empty).
    expect((await get("/admin/orders?from=2026-11-31")).html).toContain('<input id="f-from" name="from" type="text" value="2026-11-31"');
    expect((await get("/admin/orders/totals?range=lastyear")).status).toBe(422);
  });

  test("in English", async () => {
    const html = await (await h.get("/admin/orders?range=bogus", { cookie: `${cookie}; xpay_lang=en` })).text();
    expect(html).toContain('lang="en"');
    for (const text of [">Today</a>", ">Yesterday</a>", ">Last 7 days</a>", ">This month</a>", "No such quick range: choose Today, Yesterday, Last 7 days or This month."]) expect(html).toContain(text);
  });
});

describe("reports, outbox and audit", () => {
  test("reports: received dates and quick ranges", async () => {
    const rows = (html: string) => names(html, /<tr data-report="(\d+)"/g, reportId);
    expect(rows((await get("/admin/reports?range=today")).html)).toEqual(["D"]);
    expect(rows((await get("/admin/reports?range=7d&outcome=unmatched")).html).sort()).toEqual(["B", "C", "D"]);
    const r = await get("/admin/reports?from=2026-11-24&to=2026-11-24");
    expect(rows(r.html)).toEqual(["A"]);
    expect(r.html).toContain('href="/admin/reports?range=month"');
    const bad = await get("/admin/reports?to=2026-13-01");
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('<p class="field-error" id="f-to-error">请选择一个日期（或日期和时间）。</p>');
  });

  test("outbox: merchant and dates, the status kept in the quick-range links", async () => {
    expect(outboxRows((await get("/admin/notifications?pid=1002")).html)).toEqual(["C"]);
    expect(outboxRows((await get("/admin/notifications?pid=1001&range=7d")).html).sort()).toEqual(["B", "D"]);
    expect(outboxRows((await get("/admin/notifications?range=yesterday")).html)).toEqual(["C"]);
    const { html } = await get("/admin/notifications?status=pending&from=2026-11-24&to=2026-11-25");
    expect(outboxRows(html).sort()).toEqual(["A", "B"]);
    expect(html).toContain('href="/admin/notifications?status=pending&amp;range=today"');
    expect(html).toContain('<option value="pending" selected>待发送</option>');
    for (const q of ["from=2026-02-30", "pid=4242", "status=lost", "range=week"]) expect((await get(`/admin/notifications?${q}`)).status).toBe(422);
    const bad = await get("/admin/notifications?from=2026-02-30");
    expect(bad.html).toContain('<p class="field-error" id="f-from-error">请选择一个日期（或日期和时间）。</p>');
  });

  test("audit: dates, pages keep them", async () => {
    expect(auditRows((await get("/admin/audit?action=test.mark&range=today")).html)).toEqual(["D"]);
    expect(auditRows((await get("/admin/audit?action=test.mark&range=7d")).html)).toEqual(["B", "C", "D"]);
    const { html } = await get("/admin/audit?action=test.mark&from=2026-11-24&to=2026-11-25");
    expect(auditRows(html)).toEqual(["A", "B"]);
    expect(html).toContain('href="/admin/audit?action=test.mark&amp;range=yesterday"');
    const bad = await get("/admin/audit?from=2026-11-25&to=2026-11-24");
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('<p class="field-error" id="f-to-error">结束日期不能早于开始日期。</p>');
    expect(auditRows(bad.html)).toEqual([]);
  });
});
