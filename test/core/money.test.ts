import { describe, expect, test } from "bun:test";
import { formatYuan, parseCents, parseYuan, readTypedYuan, showYuan } from "../../src/core/money.ts";

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

// Issue 31: what an operator types (CLI flags, settings, console fields) is yuan, read by one parser.
describe("readTypedYuan", () => {
  test.each([
    ["500", 50000], ["500.00", 50000], ["500.5", 50050], ["0.01", 1], ["007", 700], ["99999999.99", 9999999999],
  ])("%p is %p cents", (input, cents) => {
    expect(readTypedYuan("--max", input)).toEqual({ ok: true, cents });
  });
  test.each(["5.001", "abc", "-5", "1,000", "1.", ".5", "1e3", " 5", "¥5", "5元", "", "５"])("%p is not an amount", (input) => {
    expect(readTypedYuan("--max", input)).toEqual({ ok: false, problem: `--max: ${JSON.stringify(input)} is not an amount in yuan; write it like 500 or 500.00` });
  });
  test("0 only where a bound of 0 means something; a largest value; the example and label are the caller's", () => {
    expect(readTypedYuan("--amount", "0")).toEqual({ ok: false, problem: '--amount: "0" must be more than 0 yuan; write it like 500 or 500.00' });
    expect(readTypedYuan("--min", "0.00", { zero: true })).toEqual({ ok: true, cents: 0 });
    expect(readTypedYuan("--day", "100000000")).toEqual({ ok: false, problem: '--day: "100000000" is more than ¥99999999.99, the most it can be' });
    expect(readTypedYuan("", "10.01", { zero: true, max: 1000, example: ["0.10", "1.00"] })).toEqual({ ok: false, problem: '"10.01" is more than ¥10.00, the most it can be' });
    expect(readTypedYuan("", "x", { example: ["0.10", "1.00"] })).toEqual({ ok: false, problem: '"x" is not an amount in yuan; write it like 0.10 or 1.00' });
  });
  test("printed with its unit", () => {
    expect(showYuan(50000)).toBe("¥500.00");
    expect(showYuan(1)).toBe("¥0.01");
  });
});
