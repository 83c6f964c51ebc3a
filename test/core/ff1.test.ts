import { describe, expect, test } from "bun:test";
import { FF1 } from "@noble/ciphers/ff1.js";
import { randomBytes } from "node:crypto";
import { ff1Digits } from "../../src/core/ff1.ts";

const hex = (s: string) => Uint8Array.from(Buffer.from(s, "hex"));
const NIST_KEY = hex("2B7E151628AED2A6ABF7158809CF4F3C");

describe("FF1 over decimal digits", () => {
  test("NIST SP 800-38G samples 1 and 2 (AES-128, radix 10)", () => {
    expect(ff1Digits(NIST_KEY).encrypt("0123456789")).toBe("2433477484");
    expect(ff1Digits(NIST_KEY).decrypt("2433477484")).toBe("0123456789");
    const tweaked = ff1Digits(NIST_KEY, hex("39383736353433323130"));
    expect(tweaked.encrypt("0123456789")).toBe("6124200773");
    expect(tweaked.decrypt("6124200773")).toBe("0123456789");
  });

  test("the same numbers as @noble/ciphers' FF1 for every length, key and tweak tried", () => {
    for (let n = 6; n <= 18; n++) {
      for (let k = 0; k < 20; k++) {
        const key = randomBytes(16);
        const tweak = randomBytes(k % 3 === 0 ? 0 : k);
        const digits = Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
        const theirs = FF1(10, key, tweak).encrypt([...digits].map(Number)).join("");
        const ours = ff1Digits(key, tweak);
        expect(ours.encrypt(digits)).toBe(theirs);
        expect(ours.decrypt(theirs)).toBe(digits);
      }
    }
  });

  test("many at once: each number as encrypt makes it alone (and as @noble/ciphers does), whatever the length, key, tweak and count", () => {
    for (let n = 6; n <= 18; n++) {
      const key = randomBytes(16);
      const tweak = randomBytes(n % 3 === 0 ? 0 : n + 3);
      const ours = ff1Digits(key, tweak);
      for (const count of [1, 2, 17, 64]) {
        const xs = Array.from({ length: count }, () => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join(""));
        xs[0] = "9".repeat(n); // the largest halves
        if (count > 1) xs[1] = "0".repeat(n);
        const many = ours.encryptMany(xs);
        expect(many).toHaveLength(count);
        xs.forEach((x, j) => {
          expect(many[j]).toBe(ours.encrypt(x));
          expect(ours.decrypt(many[j]!)).toBe(x);
        });
        expect(many[0]).toBe(FF1(10, key, tweak).encrypt([...xs[0]!].map(Number)).join(""));
      }
    }
    expect(ff1Digits(NIST_KEY).encryptMany(["0123456789", "0123456789"])).toEqual(["2433477484", "2433477484"]);
    expect(ff1Digits(NIST_KEY).encryptMany([])).toEqual([]);
  });

  test("a permutation: every 6-digit string has its own number and comes back", () => {
    const c = ff1Digits(randomBytes(16));
    const seen = new Set<string>();
    for (let i = 0; i < 1_000_000; i += 7) {
      const x = String(i).padStart(6, "0");
      const y = c.encrypt(x);
      expect(y).toHaveLength(6);
      seen.add(y);
      if (i % 7001 === 0) expect(c.decrypt(y)).toBe(x);
    }
    expect(seen.size).toBe(Math.ceil(1_000_000 / 7));
  });

  test("another key gives other numbers; leading zeros are kept", () => {
    const a = ff1Digits(randomBytes(16));
    const b = ff1Digits(randomBytes(16));
    const xs = Array.from({ length: 50 }, (_, i) => String(i).padStart(12, "0"));
    const same = xs.filter((x) => a.encrypt(x) === b.encrypt(x)).length;
    expect(same).toBeLessThan(3);
    for (const x of xs) expect(a.decrypt(a.encrypt(x))).toBe(x);
  });

  test("refuses what it cannot permute", () => {
    const c = ff1Digits(randomBytes(16));
    expect(() => c.encrypt("12345")).toThrow(/6 to 18/);
    expect(() => c.encrypt("1".repeat(19))).toThrow(/6 to 18/);
    expect(() => c.encrypt("12345a")).toThrow(/6 to 18/);
    expect(() => c.encryptMany(["123456", "1234567"])).toThrow(/one length/);
    expect(() => ff1Digits(randomBytes(32))).toThrow(/16 bytes/);
  });
});
