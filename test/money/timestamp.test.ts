// The replay window of signed requests (V2, native cancel, report API): both edges, both units.
import { describe, expect, test } from "bun:test";
import { checkTimestamp } from "../../src/protocols/timestamp.ts";

const NOW = 1_800_000_000;
const W = 300;
const SECONDS_ONLY = "timestamp must be Unix seconds (10 digits)";
const EITHER = "timestamp must be Unix seconds (10 digits) or milliseconds (13 digits)";
const OUTSIDE = "timestamp is outside the allowed window of 300 seconds; check the client clock";

describe("checkTimestamp", () => {
  test("missing", () => {
    expect(checkTimestamp(undefined, NOW, W)).toBe("missing parameter: timestamp");
    expect(checkTimestamp("", NOW, W, { allowMillis: true })).toBe("missing parameter: timestamp");
  });

  test("seconds: inside, on both edges, one second beyond either", () => {
    for (const t of [NOW, NOW - W, NOW + W]) expect(checkTimestamp(String(t), NOW, W)).toBeNull();
    expect(checkTimestamp(String(NOW - W - 1), NOW, W)).toBe(OUTSIDE);
    expect(checkTimestamp(String(NOW + W + 1), NOW, W)).toBe(OUTSIDE);
  });

  test("milliseconds only when allowed; rounded down to the second", () => {
    expect(checkTimestamp(`${NOW}123`, NOW, W)).toBe(SECONDS_ONLY);
    expect(checkTimestamp(`${NOW}123`, NOW, W, { allowMillis: true })).toBeNull();
    expect(checkTimestamp(`${NOW - W}000`, NOW, W, { allowMillis: true })).toBeNull();
    expect(checkTimestamp(`${NOW - W - 1}999`, NOW, W, { allowMillis: true })).toBe(OUTSIDE); // floor, not round
    expect(checkTimestamp(`${NOW + W}999`, NOW, W, { allowMillis: true })).toBeNull();
    expect(checkTimestamp(`${NOW + W + 1}000`, NOW, W, { allowMillis: true })).toBe(OUTSIDE);
  });

  test.each(["123456789", "12345678901", "123456789012", "12345678901234", " 1800000000", "1800000000 ", "18000000.0", "-180000000", "1800000000x", "0x6B49D200"])(
    "refuses %p",
    (t) => {
      expect(checkTimestamp(t, NOW, W)).toBe(SECONDS_ONLY);
      expect(checkTimestamp(t, NOW, W, { allowMillis: true })).toBe(EITHER);
    },
  );

  test("the window is the caller's", () => {
    expect(checkTimestamp(String(NOW - 10), NOW, 10)).toBeNull();
    expect(checkTimestamp(String(NOW - 11), NOW, 10)).toBe("timestamp is outside the allowed window of 10 seconds; check the client clock");
  });
});
