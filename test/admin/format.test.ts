// The console's one number format (src/admin/format.ts): grouping, yuan from integer cents, 万 in
// Chinese from WAN_FROM, durations in the page's units, and the translator grouping counts but
// not identifiers.
import { describe, expect, test } from "bun:test";
import { bigCount, duration, grouped, money, WAN_FROM, yuanText } from "../../src/admin/format.ts";
import { translator } from "../../src/admin/i18n/index.ts";

const zh = translator("zh");
const en = translator("en");

describe("numbers", () => {
  test.each([
    [0, "0"], [999, "999"], [1000, "1,000"], [484452, "484,452"], [-1234567, "-1,234,567"],
  ])("grouped(%p) = %p", (n, s) => expect(grouped(n)).toBe(s));

  test.each([
    [26979717, "269,797.17"], [5, "0.05"], [100, "1.00"], [99999999999, "999,999,999.99"], [-123456, "-1,234.56"], [0, "0.00"],
  ])("yuanText(%p) = %p", (c, s) => expect(yuanText(c)).toBe(s));

  test("money", () => {
    expect(money(26979717)).toBe("¥269,797.17");
    expect(money(6660)).toBe("¥66.60");
    expect(money(null)).toBe("—");
  });

  test("万 in Chinese from WAN_FROM, grouped below it and always in English", () => {
    expect(WAN_FROM).toBe(100_000);
    expect(bigCount(484452, zh)).toBe("48.4 万");
    expect(bigCount(120000, zh)).toBe("12 万");
    expect(bigCount(99999, zh)).toBe("99,999");
    expect(bigCount(250_000_000, zh)).toBe("2.5 亿");
    expect(bigCount(484452, en)).toBe("484,452");
  });
});

describe("durations", () => {
  test.each([
    [45, "45 秒", "45 s"],
    [12 * 60, "12 分钟", "12 min"],
    [12 * 60 + 5, "12 分钟 5 秒", "12 min 5 s"],
    [3 * 86400 + 4 * 3600 + 59, "3 天 4 小时", "3 d 4 h"],
    [99 * 3600 + 55 * 60, "4 天 3 小时", "4 d 3 h"],
    [2 * 3600, "2 小时", "2 h"],
    [2 * 86400 + 5 * 60, "2 天", "2 d"],
    [0, "0 秒", "0 s"],
    [-90, "-1 分钟 30 秒", "-1 min 30 s"],
  ])("%p s", (s, z, e) => {
    expect(duration(s, zh)).toBe(z);
    expect(duration(s, en)).toBe(e);
  });
});

describe("translator", () => {
  test("groups counts, leaves identifiers as they are", () => {
    expect(zh("dashboard.paid_count", { n: 484452 })).toBe("484,452 笔已支付");
    expect(zh("merchants.page_title", { pid: 1001 })).not.toContain("1,001");
    expect(zh("merchants.page_title", { pid: 1001 })).toContain("1001");
    expect(en("delivery.income_count", { count: 12345 })).toContain("12,345");
  });

  test("cheap per cell: one NumberFormat, no construction per call", () => {
    const t0 = performance.now();
    let s = 0;
    for (let i = 0; i < 100_000; i++) s += yuanText(i * 137).length;
    const ms = performance.now() - t0;
    expect(s).toBeGreaterThan(0);
    expect(ms).toBeLessThan(500); // ~20-40 ms here; constructing a NumberFormat per call costs seconds
  });
});
