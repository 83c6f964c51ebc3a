// The operator's order filter as typed (console and CLI share it): every field strict, one problem
// per field, dates in the operator's time zone, one search box that knows what it was given.
import { expect, test } from "bun:test";
import { localDayStart, parseLocalTime } from "../../src/core/browse/local-time.ts";
import { classifySearch, encodeCursor, filterQueryString, parseCursor, parseOrderFilter } from "../../src/core/browse/order-query.ts";
import { formatLocal } from "../../src/core/time.ts";

const SH = "Asia/Shanghai";
const show = (t: number | null, zone = SH) => (t === null ? null : formatLocal(t * 1000, zone));

test("dates are local days in the zone; a 'to' day is inclusive (the next day's start, exclusive)", () => {
  expect(show(parseLocalTime("2026-11-23", SH))).toBe("2026-11-23 00:00:00 +08:00");
  expect(show(parseLocalTime("2026-11-23", SH, { endOfDay: true }))).toBe("2026-11-24 00:00:00 +08:00");
  expect(show(parseLocalTime("2026-11-23 14:30", SH))).toBe("2026-11-23 14:30:00 +08:00");
  expect(show(parseLocalTime("2026-11-23T14:30", "UTC"), "UTC")).toBe("2026-11-23 14:30:00 +00:00");
  // A 23-hour day (New York springs forward): the next day still starts at its midnight.
  expect(show(parseLocalTime("2026-03-08", "America/New_York", { endOfDay: true }), "America/New_York")).toBe("2026-03-09 00:00:00 -04:00");
  expect(show(parseLocalTime("2026-03-08 12:00", "America/New_York"), "America/New_York")).toBe("2026-03-08 12:00:00 -04:00");
  // The zones furthest from UTC.
  expect(show(localDayStart("2026-11-23", "Pacific/Kiritimati"), "Pacific/Kiritimati")).toBe("2026-11-23 00:00:00 +14:00");
  expect(show(localDayStart("2026-11-23", "Etc/GMT+12"), "Etc/GMT+12")).toBe("2026-11-23 00:00:00 -12:00");
  for (const bad of ["2026-02-30", "2026-13-01", "2026-11-23 24:00", "2026-11-23 10:60", "23.11.2026", "2026-11-23 1430", "1999-01-01", "today", ""]) {
    expect({ bad, t: parseLocalTime(bad, SH) }).toEqual({ bad, t: null });
  }
});

test("the search box: 20 digits, an amount, or a merchant number", () => {
  expect(classifySearch("20261123143000123456")).toEqual({ tradeNo: "20261123143000123456", outTradeNo: "20261123143000123456" });
  expect(classifySearch("9.98")).toEqual({ tradeAmount: 998, outTradeNo: "9.98" });
  expect(classifySearch("12")).toEqual({ tradeAmount: 1200, outTradeNo: "12" });
  expect(classifySearch("¥9.98")).toEqual({ tradeAmount: 998 });
  expect(classifySearch("9.98元")).toEqual({ tradeAmount: 998 });
  expect(classifySearch(" M-2026/0042 ")).toEqual({ outTradeNo: "M-2026/0042" });
  expect(classifySearch("2026112314300012345")).toEqual({ outTradeNo: "2026112314300012345" }); // 19 digits: too long for an amount
  for (const bad of ["", "订单", "a b", "x".repeat(65), "9.999元"]) expect(classifySearch(bad)).toBeNull();
});

test("a good filter becomes a query; the values are kept for the form and the links", () => {
  const p = parseOrderFilter({ status: "expired", pid: "1001", pay_type: "wxpay", account: "3", from: "2026-11-01", to: "2026-11-23", q: "9.98" }, SH);
  expect(p.problems).toEqual({});
  expect(p.filter).toEqual({
    status: 4, pid: 1001, payType: "wxpay", accountId: 3,
    from: parseLocalTime("2026-11-01", SH)!, to: parseLocalTime("2026-11-24", SH)!, search: { tradeAmount: 998, outTradeNo: "9.98" },
  });
  expect(filterQueryString(p.values)).toBe("status=expired&pid=1001&pay_type=wxpay&account=3&from=2026-11-01&to=2026-11-23&q=9.98");
  expect(parseOrderFilter({ status: " 2 ", pid: "", q: "  " }, SH)).toEqual({ filter: { status: 2 }, values: { status: "2" }, problems: {} });
});

test("every bad field has its own problem; nothing bad is dropped silently", () => {
  const p = parseOrderFilter({ status: "done", pid: "x1", pay_type: "Ali Pay", account: "-3", from: "2026-11-31", to: "yesterday", q: "中文", after: "garbage" }, SH);
  expect(Object.fromEntries(Object.entries(p.problems).map(([f, x]) => [f, x!.code]))).toEqual({
    status: "bad_status", pid: "bad_pid", pay_type: "bad_pay_type", account: "bad_account", from: "bad_date", to: "bad_date", q: "bad_search", after: "bad_cursor",
  });
  expect(p.filter).toEqual({});
  expect(p.problems.status!.message).toBe("must be one of: pending, paid, closed, expired, failed (or 1-5)");
  expect(parseOrderFilter({ from: "2026-11-23", to: "2026-11-22" }, SH).problems.to?.code).toBe("range_reversed");
  expect(parseOrderFilter({ from: "2026-11-23 10:00", to: "2026-11-23 10:00" }, SH).problems.to?.code).toBe("range_reversed");
  const known = { pids: [1001], accountIds: [1] };
  expect(parseOrderFilter({ pid: "1002", account: "2" }, SH, known).problems).toEqual({
    pid: { code: "unknown_pid", message: "no merchant 1002" }, account: { code: "unknown_account", message: "no account 2" },
  });
  expect(parseOrderFilter({ pid: "1001", account: "1" }, SH, known).problems).toEqual({});
});

test("the page position round-trips and refuses what it did not write", () => {
  const c = encodeCursor({ createdAt: 1795415400, tradeNo: "20261123143000123456" });
  expect(c).toBe("1795415400.20261123143000123456");
  expect(parseCursor(c)).toEqual({ createdAt: 1795415400, tradeNo: "20261123143000123456" });
  for (const bad of ["", "1.", ".2026", "x.2026", "1.2026 OR 1=1", "1795415400"]) expect(parseCursor(bad)).toBeNull();
  expect(filterQueryString({ status: "paid" }, c)).toBe(`status=paid&after=${encodeURIComponent(c)}`);
});
