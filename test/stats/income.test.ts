// Income stats (issue 18): paid orders count on their paid day, every order on its created day,
// days and hours in the operator's time zone, the same figures for `xpay stats` and the dashboard.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buckets, lastDays, localDate, startOfLocalDay } from "../../src/core/stats/calendar.ts";
import { dashboardStats } from "../../src/core/stats/dashboard.ts";
import { incomeStats } from "../../src/core/stats/income.ts";
import { rollupPieces } from "../../src/core/stats/rollup-pieces.ts";
import type { SqliteStore } from "../../src/store/sqlite/index.ts";
import { pieceSql } from "../../src/store/sqlite/stats.ts";
import { harness, type Harness, seed } from "../helpers.ts";

let h: Harness;
let wx: number;
let ali: number;
beforeEach(async () => {
  h = harness();
  const { account } = await seed(h);
  ali = account.id;
  wx = (await h.gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wx", name: "WeChat B", qrcode: "https://example.com/wx", now: h.clock.now() })).id;
  await h.gw.store.addMerchant({ pid: 1002, name: "Other shop", secret: "x".repeat(32), now: h.clock.now() });
});
afterEach(() => h.close());

/** 2026-11-23 00:00 in Shanghai (UTC+8), unix seconds. */
const DAY = Date.UTC(2026, 10, 22, 16) / 1000;
let n = 0;
function order(o: { pid?: number; account: number | null; payType: string; created: number; paid?: number; amount?: number; status?: number }) {
  const db = (h.gw.store as SqliteStore).db;
  n++;
  const status = o.status ?? (o.paid !== undefined ? 2 : 4);
  db.query(
    `INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at)
     VALUES (?, ?, ?, 'native', ?, 'x', ?, ?, ?, ?, ?, ?, ?)`,
  ).run(`T${n}`, o.pid ?? 1001, `O${n}`, o.payType, o.amount ?? 1000, o.account === null ? null : (o.amount ?? 1000), o.account, status, o.created, o.created + 900, o.paid ?? null);
}

describe("calendar", () => {
  test("the start of a local day, with whole, half and three-quarter hour offsets", () => {
    expect(startOfLocalDay(DAY + 13 * 3600, "Asia/Shanghai")).toBe(DAY);
    expect(startOfLocalDay(DAY, "Asia/Shanghai")).toBe(DAY);
    expect(startOfLocalDay(DAY - 1, "Asia/Shanghai")).toBe(DAY - 86400);
    expect(startOfLocalDay(Date.UTC(2026, 10, 23, 12) / 1000, "UTC")).toBe(Date.UTC(2026, 10, 23) / 1000);
    expect(startOfLocalDay(Date.UTC(2026, 10, 23, 12) / 1000, "Asia/Kathmandu")).toBe(Date.UTC(2026, 10, 22, 18, 15) / 1000);
  });

  test("days of 23 and 25 hours where the clocks change", () => {
    const ny = "America/New_York";
    const march8 = startOfLocalDay(Date.UTC(2026, 2, 8, 20) / 1000, ny);
    const march9 = startOfLocalDay(Date.UTC(2026, 2, 9, 20) / 1000, ny);
    expect(march9 - march8).toBe(23 * 3600);
    const nov1 = startOfLocalDay(Date.UTC(2026, 10, 1, 20) / 1000, ny);
    const nov2 = startOfLocalDay(Date.UTC(2026, 10, 2, 20) / 1000, ny);
    expect(nov2 - nov1).toBe(25 * 3600);
    const days = lastDays(Date.UTC(2026, 2, 10, 12) / 1000, 4, ny);
    expect(days.map((d) => localDate(d, ny))).toEqual(["2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"]);
  });
});

describe("income", () => {
  test("a paid order counts on its paid day, every order on its created day", async () => {
    order({ account: ali, payType: "alipay", created: DAY - 120, paid: DAY + 180, amount: 1234 }); // 23:58 -> 00:03
    order({ account: ali, payType: "alipay", created: DAY + 3600 });
    const r = await incomeStats(h.gw, { from: DAY - 86400, to: DAY + 86400, by: "day" });
    expect(r.zone).toBe("Asia/Shanghai");
    expect(r.rows).toEqual([
      { key: "2026-11-22", label: "2026-11-22", paidCount: 0, paidAmount: 0, created: 1, ratio: 0 },
      { key: "2026-11-23", label: "2026-11-23", paidCount: 1, paidAmount: 1234, created: 1, ratio: 1 },
    ]);
    expect(r.total).toEqual({ paidCount: 1, paidAmount: 1234, created: 2, ratio: 0.5 });
  });

  test("days follow the timezone setting", async () => {
    order({ account: ali, payType: "alipay", created: DAY + 3600, paid: DAY + 3700 }); // 01:01 Shanghai = 17:01 UTC the day before
    await h.gw.store.setSetting("timezone", "UTC");
    h.gw.forgetSettings();
    const r = await incomeStats(h.gw, { from: DAY - 86400, to: DAY + 86400, by: "day" });
    expect(r.rows.filter((x) => x.paidCount > 0).map((x) => x.key)).toEqual(["2026-11-22"]);
  });

  test("empty days and hours are rows too; the range is [from, to)", async () => {
    order({ account: ali, payType: "alipay", created: DAY + 2 * 3600, paid: DAY + 2 * 3600 + 60 });
    order({ account: ali, payType: "alipay", created: DAY + 3 * 86400, paid: DAY + 3 * 86400 }); // at `to`: outside
    const days = await incomeStats(h.gw, { from: DAY, to: DAY + 3 * 86400, by: "day" });
    expect(days.rows.map((x) => [x.key, x.paidCount])).toEqual([["2026-11-23", 1], ["2026-11-24", 0], ["2026-11-25", 0]]);
    const hours = await incomeStats(h.gw, { from: DAY, to: DAY + 86400, by: "hour" });
    expect(hours.rows.length).toBe(24);
    expect(hours.rows[2]).toMatchObject({ key: "2026-11-23 02:00", paidCount: 1, created: 1 });
    expect(hours.rows[23]!.key).toBe("2026-11-23 23:00");
  });

  test("by pay type, account and merchant, with names; --pid narrows", async () => {
    order({ account: ali, payType: "alipay", created: DAY + 10, paid: DAY + 20, amount: 500 });
    order({ account: ali, payType: "alipay", created: DAY + 10, paid: DAY + 20, amount: 700, pid: 1002 });
    order({ account: wx, payType: "wxpay", created: DAY + 10, paid: DAY + 20, amount: 300 });
    order({ account: null, payType: "", created: DAY + 10, status: 5 }); // failed: no account
    const range = { from: DAY, to: DAY + 86400 };
    const byType = await incomeStats(h.gw, { ...range, by: "pay-type" });
    expect(byType.rows.map((x) => [x.label, x.paidCount, x.paidAmount, x.created])).toEqual([
      ["alipay", 2, 1200, 2], ["wxpay", 1, 300, 1], ["(none)", 0, 0, 1],
    ]);
    const byAccount = await incomeStats(h.gw, { ...range, by: "account" });
    expect(byAccount.rows.map((x) => x.label)).toEqual([`#${ali} Alipay A (alipay)`, `#${wx} WeChat B (wxpay)`, "(none)"]);
    const byMerchant = await incomeStats(h.gw, { ...range, by: "merchant" });
    expect(byMerchant.rows.map((x) => [x.label, x.paidAmount])).toEqual([["1001 Shop", 800], ["1002 Other shop", 700]]);
    const one = await incomeStats(h.gw, { ...range, by: "pay-type", pid: 1002 });
    expect(one.total).toEqual({ paidCount: 1, paidAmount: 700, created: 1, ratio: 1 });
    expect(byType.total).toEqual({ paidCount: 3, paidAmount: 1500, created: 4, ratio: 0.75 });
  });

  test("the store's per-account rows: only pairs with orders; orders without an account per pay type", async () => {
    order({ account: ali, payType: "alipay", created: DAY + 10, paid: DAY + 20, amount: 500 });
    order({ account: wx, payType: "wxpay", created: DAY + 10, paid: DAY + 20, amount: 300, pid: 1002 });
    order({ account: null, payType: "", created: DAY + 10, status: 1 });
    order({ account: null, payType: "qqpay", created: DAY + 10, status: 5 });
    const rows = await h.gw.store.stats.incomeByAccount({ from: DAY, to: DAY + 86400 });
    expect(rows.sort((a, b) => a.pid - b.pid || String(a.payType).localeCompare(b.payType))).toEqual([
      { accountId: null, pid: 1001, payType: "", paidCount: 0, paidAmount: 0, created: 1 },
      { accountId: ali, pid: 1001, payType: "alipay", paidCount: 1, paidAmount: 500, created: 1 },
      { accountId: null, pid: 1001, payType: "qqpay", paidCount: 0, paidAmount: 0, created: 1 },
      { accountId: wx, pid: 1002, payType: "wxpay", paidCount: 1, paidAmount: 300, created: 1 },
    ]);
    expect(await h.gw.store.stats.incomeByAccount({ from: DAY + 20, to: DAY + 86400, pid: 1001 })).toEqual([
      { accountId: ali, pid: 1001, payType: "alipay", paidCount: 1, paidAmount: 500, created: 0 },
    ]);
  });

  test("every income statement reads the rollup (migration 025) or an index range of orders by its key, never a table scan", () => {
    const db = (h.gw.store as SqliteStore).db;
    const plan = (sql: string) =>
      (db.query(`EXPLAIN QUERY PLAN ${sql}`).all({ from: 0, to: 1, pid: 1001 }) as { detail: string }[]).map((r) => r.detail).join("; ");
    for (const pid of [false, true]) {
      for (const group of [false, true]) {
        expect(plan(pieceSql("day", { pid, group }))).toStartWith("SEARCH order_rollup_day USING PRIMARY KEY (bucket>? AND bucket<?)");
        expect(plan(pieceSql("hour", { pid, group }))).toStartWith("SEARCH order_rollup_hour USING PRIMARY KEY (bucket>? AND bucket<?)");
        expect(plan(pieceSql("created", { pid, group }))).toStartWith("SEARCH orders USING COVERING INDEX orders_created_stats (created_at>? AND created_at<?)");
        expect(plan(pieceSql("paid", { pid, group }))).toStartWith("SEARCH orders USING INDEX orders_paid_at (paid_at>? AND paid_at<?)");
      }
    }
  });

  test("a range is read as whole UTC days, whole hours around them, and the minutes at its ends from orders", () => {
    const d = Date.UTC(2026, 10, 23) / 1000;
    expect(rollupPieces(d - 8 * 3600 + 60, d + 86400 + 3 * 3600 + 5)).toEqual({
      days: [[d, d + 86400]], hours: [[d - 7 * 3600, d], [d + 86400, d + 86400 + 3 * 3600]], orders: [[d - 8 * 3600 + 60, d - 7 * 3600], [d + 86400 + 3 * 3600, d + 86400 + 3 * 3600 + 5]],
    });
    expect(rollupPieces(d + 1800, d + 3600 + 60)).toEqual({ days: [], hours: [], orders: [[d + 1800, d + 3600 + 60]] });
    expect(rollupPieces(d - 16 * 3600, d + 8 * 3600)).toEqual({ days: [], hours: [[d - 16 * 3600, d + 8 * 3600]], orders: [] }); // a Shanghai day
    expect(rollupPieces(d, d)).toEqual({ days: [], hours: [], orders: [] });
  });

  test("buckets: local days cut to the range, hours of 3600 s", () => {
    expect(buckets(DAY + 3600, DAY + 86400 + 60, "day", "Asia/Shanghai")).toEqual([
      { from: DAY + 3600, to: DAY + 86400, label: "2026-11-23" },
      { from: DAY + 86400, to: DAY + 86400 + 60, label: "2026-11-24" },
    ]);
    expect(buckets(DAY + 5400, DAY + 3 * 3600, "hour", "Asia/Shanghai").map((b) => [b.from - DAY, b.label])).toEqual([
      [5400, "2026-11-23 01:00"], [7200, "2026-11-23 02:00"],
    ]);
  });
});

describe("dashboard", () => {
  test("today, yesterday, 7 and 30 days, hours, days and breakdowns in one call", async () => {
    const now = DAY + 10 * 3600 + 5; // 10:00:05 today
    order({ account: ali, payType: "alipay", created: DAY + 3600, paid: DAY + 3660, amount: 100 }); // today 01:00
    order({ account: wx, payType: "wxpay", created: now, paid: now, amount: 200 }); // this very second
    order({ account: ali, payType: "alipay", created: DAY - 3600, paid: DAY - 3000, amount: 400 }); // yesterday
    order({ account: ali, payType: "alipay", created: DAY - 6 * 86400, paid: DAY - 6 * 86400 + 60, amount: 800 }); // 6 days ago
    order({ account: ali, payType: "alipay", created: DAY - 29 * 86400, paid: DAY - 29 * 86400 + 60, amount: 1600 }); // 29 days ago
    order({ account: ali, payType: "alipay", created: DAY - 30 * 86400, paid: DAY - 30 * 86400 + 60, amount: 3200 }); // 30 days ago: out
    const d = await dashboardStats(h.gw, { now });
    expect(d.periods.today).toMatchObject({ from: DAY, paidCount: 2, paidAmount: 300, created: 2 });
    expect(d.periods.yesterday).toMatchObject({ from: DAY - 86400, to: DAY, paidCount: 1, paidAmount: 400 });
    expect(d.periods.last7.paidAmount).toBe(1500);
    expect(d.periods.last30).toMatchObject({ from: DAY - 29 * 86400, paidAmount: 3100, paidCount: 5 });
    expect(d.hoursToday.map((x) => x.key)).toEqual(Array.from({ length: 11 }, (_, i) => `2026-11-23 ${String(i).padStart(2, "0")}:00`));
    expect(d.hoursToday[1]!.paidAmount).toBe(100);
    expect(d.days30.length).toBe(30);
    expect(d.days30[0]).toMatchObject({ key: "2026-10-25", paidAmount: 1600 });
    expect(d.days30.reduce((s, x) => s + x.paidAmount, 0)).toBe(3100);
    expect(d.today.payType.map((x) => [x.key, x.paidAmount])).toEqual([["wxpay", 200], ["alipay", 100]]);
    expect(d.last30.account[0]).toMatchObject({ key: String(ali), paidAmount: 2900 });
    expect(d.last30.merchant).toEqual([expect.objectContaining({ key: "1001", label: "1001 Shop", paidAmount: 3100 })]);
    const other = await dashboardStats(h.gw, { now, pid: 1002 });
    expect(other.periods.last30.paidCount).toBe(0);
  });

  test("orders created and paid through the core count", async () => {
    const { createOrder } = await import("../../src/core/create-order.ts");
    const { settleOperatorPayment } = await import("../../src/core/settle-report.ts");
    const merchant = (await h.gw.store.getMerchant(1001))!;
    const base = { pid: 1001, family: "native" as const, name: "x", notifyUrl: "", returnUrl: "", param: "", clientip: "", device: "pc", extra: {} };
    const a = await createOrder(h.gw, merchant, { ...base, outTradeNo: "A1", payType: "alipay", amount: 1000 });
    await createOrder(h.gw, merchant, { ...base, outTradeNo: "A2", payType: "alipay", amount: 2000 });
    if (!a.ok) throw new Error(a.reason);
    await settleOperatorPayment(h.gw, a.order.tradeNo);
    const d = await dashboardStats(h.gw);
    expect(d.periods.today).toMatchObject({ paidCount: 1, paidAmount: a.order.tradeAmount!, created: 2, ratio: 0.5 });
  });
});
