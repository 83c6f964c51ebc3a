import { describe, expect, test } from "bun:test";
import { formatYuan, parseCents, parseYuan } from "../../src/core/money.ts";

describe("money", () => {
  test.each([
    ["1", 100], ["1.5", 150], ["1.50", 150], ["0.01", 1], ["10.00", 1000], ["99999999.99", 9999999999], [12.3, 1230],
  ])("parses %p as %p cents", (input, cents) => {
    expect(parseYuan(input)).toBe(cents);
  });
  test.each(["1.001", "-1", "abc", "0", "0.00", "", " 1", "1.", ".5", "1e3", "100000000.00", "１"])("refuses %p", (input) => {
    expect(parseYuan(input)).toBeNull();
  });
  test("formats cents with two decimals", () => {
    expect(formatYuan(1)).toBe("0.01");
    expect(formatYuan(999)).toBe("9.99");
    expect(formatYuan(100000)).toBe("1000.00");
  });
  test("parses integer cents strictly", () => {
    expect(parseCents("999")).toBe(999);
    expect(parseCents("9.9")).toBeNull();
    expect(parseCents("-1")).toBeNull();
  });
});
