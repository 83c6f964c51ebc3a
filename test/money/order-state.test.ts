// The order state machine as pure rules: what a status reads as at the expiry edge, and the
// spec's cancel table.
import { describe, expect, test } from "bun:test";
import { decideCancel, effectiveStatus, parseStatusWord, STATUS_NAMES, STATUS_WORDS } from "../../src/core/order-state.ts";

const EXPIRE = 1_800_000_900;

describe("effectiveStatus", () => {
  test("pending reads as timed out from expire_time on, not a second before", () => {
    expect(effectiveStatus({ status: 1, expireTime: EXPIRE }, EXPIRE - 1)).toBe(1);
    expect(effectiveStatus({ status: 1, expireTime: EXPIRE }, EXPIRE)).toBe(4);
    expect(effectiveStatus({ status: 1, expireTime: EXPIRE }, EXPIRE + 1)).toBe(4);
  });
  test("every other status reads as stored, also past expire_time", () => {
    for (const s of [2, 3, 4, 5] as const) expect(effectiveStatus({ status: s, expireTime: EXPIRE }, EXPIRE + 10)).toBe(s);
  });
});

describe("decideCancel", () => {
  const at = (status: 1 | 2 | 3 | 4 | 5, now = EXPIRE - 1) => decideCancel({ status, expireTime: EXPIRE }, now);
  test("the spec's table", () => {
    expect(at(1)).toEqual({ ok: true });
    expect(at(1, EXPIRE)).toEqual({ ok: false, reason: "order has timed out and cannot be closed" });
    expect(at(2)).toEqual({ ok: false, reason: "order is paid and cannot be closed" });
    expect(at(3)).toEqual({ ok: false, reason: "order is already closed" });
    expect(at(4)).toEqual({ ok: false, reason: "order has timed out and cannot be closed" });
    expect(at(5)).toEqual({ ok: false, reason: "order creation failed; there is nothing to close" });
  });
});

test("status names", () => {
  expect(STATUS_NAMES).toEqual({ 1: "pending", 2: "paid", 3: "closed", 4: "timed out", 5: "creation failed" });
});

test("status words and numbers typed by the operator", () => {
  expect(STATUS_WORDS).toEqual({ pending: 1, paid: 2, closed: 3, expired: 4, failed: 5 });
  for (const [word, n] of Object.entries(STATUS_WORDS)) {
    expect(parseStatusWord(word)).toBe(n);
    expect(parseStatusWord(String(n))).toBe(n);
  }
  for (const v of ["", "0", "6", "12", " 1", "1 ", "01", "Paid", "timed out", "toString", "constructor", "__proto__", "hasOwnProperty"]) expect(parseStatusWord(v)).toBeNull();
});
