// The signing rules beyond the known-answer vectors (test/core/signing.test.ts): which values are
// skipped, the byte order of keys, the shape a signature must have, and every key format epay
// SDKs store.
import { describe, expect, test } from "bun:test";
import { createHash, createPrivateKey, createPublicKey } from "node:crypto";
import vectors from "../fixtures/signing.json";
import { canonicalString, md5Hex, md5Sign, md5Verify, pemToBase64, privateKeyFrom, publicKeyFrom, rsaSign, rsaVerify, safeEqual } from "../../src/protocols/signing.ts";

const { private_key_pem, public_key_pem, public_key_base64, private_key_base64 } = vectors.rsa;

describe("canonicalString", () => {
  test("skips undefined, null and empty values and the excluded fields; keeps 0, false and spaces", () => {
    const params = { z: 0, y: false, x: "", w: null, v: undefined, u: " ", sign: "s", sign_type: "MD5" };
    expect(canonicalString(params, ["sign", "sign_type"])).toBe("u= &y=false&z=0");
    expect(canonicalString(params, ["sign"])).toBe("sign_type=MD5&u= &y=false&z=0");
    expect(canonicalString(params, [])).toBe("sign=s&sign_type=MD5&u= &y=false&z=0");
  });

  test("keys in byte order (upper case first, prefixes first), whatever order they came in", () => {
    const keys = ["b", "a_b", "B", "a", "ab", "A", "a1", "_", "aa"];
    const expected = "A=1&B=1&_=1&a=1&a1=1&a_b=1&aa=1&ab=1&b=1";
    for (const order of [keys, [...keys].reverse(), [...keys].sort()]) {
      expect(canonicalString(Object.fromEntries(order.map((k) => [k, "1"])), [])).toBe(expected);
    }
  });

  test("raw values: no URL encoding, numbers as written", () => {
    expect(canonicalString({ b: "a b&c=d+中", a: 10.5, c: 12345678901234567890n }, [])).toBe("a=10.5&b=a b&c=d+中&c=12345678901234567890");
  });
});

describe("MD5", () => {
  const secret = "k3y";
  const params = { pid: "1001", money: "1.00" };
  const sign = md5Sign(params, secret, ["sign"]);

  test("md5 of the canonical string with the secret appended", () => {
    expect(md5Hex("abc")).toBe(createHash("md5").update("abc").digest("hex"));
    expect(md5Hex("中")).toBe(createHash("md5").update(Buffer.from("中", "utf8")).digest("hex"));
    expect(sign).toBe(md5Hex("money=1.00&pid=1001k3y"));
  });

  test("verify: exact, upper-case hex accepted; any other shape refused", () => {
    expect(md5Verify({ ...params, sign }, secret, "sign", ["sign"])).toBe(true);
    expect(md5Verify({ ...params, sign: sign.toUpperCase() }, secret, "sign", ["sign"])).toBe(true);
    for (const bad of [undefined, null, 123, "", sign.slice(1), `${sign}0`, `${sign.slice(0, 31)}x`, "0".repeat(32)]) {
      expect(md5Verify({ ...params, sign: bad as string }, secret, "sign", ["sign"])).toBe(false);
    }
    expect(md5Verify({ ...params, hash: sign }, secret, "hash", ["hash"])).toBe(true);
    expect(md5Verify({ ...params, sign }, secret, "hash", ["hash"])).toBe(false);
  });

  test("safeEqual: equal, case-insensitive, different lengths, different content", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("ABC", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("abcd", "abc")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});

describe("RSA keys in every form SDKs store them", () => {
  const params = { pid: "1001", money: "1.00", sign_type: "RSA" };

  test("PKCS#8 PEM, bare Base64 PKCS#8, PKCS#1 PEM sign the same; SPKI PEM and bare Base64 verify", () => {
    const pkcs1 = createPrivateKey(private_key_pem).export({ type: "pkcs1", format: "pem" }).toString();
    const s = rsaSign(params, private_key_pem);
    expect(rsaSign(params, private_key_base64)).toBe(s);
    expect(rsaSign(params, pkcs1)).toBe(s);
    expect(rsaSign({ ...params, sign: "old", sign_type: "other" }, private_key_pem)).toBe(s); // sign and sign_type are not signed
    expect(rsaVerify({ ...params, sign: s }, public_key_pem)).toBe(true);
    expect(rsaVerify({ ...params, sign: s }, public_key_base64)).toBe(true);
    const pkcs1Public = createPublicKey(public_key_pem).export({ type: "pkcs1", format: "pem" }).toString();
    expect(rsaVerify({ ...params, sign: s }, pkcs1Public)).toBe(true);
  });

  test("keys parse to the right kind; PEM with line breaks and a bare body with spaces", () => {
    expect(privateKeyFrom(private_key_pem).type).toBe("private");
    expect(privateKeyFrom(private_key_base64).type).toBe("private");
    expect(publicKeyFrom(public_key_pem).type).toBe("public");
    expect(publicKeyFrom(public_key_base64).type).toBe("public");
    const spaced = public_key_base64.replace(/(.{64})/g, "$1\n ");
    expect(publicKeyFrom(spaced).type).toBe("public");
    expect(pemToBase64(public_key_pem)).toBe(public_key_base64);
    expect(pemToBase64(private_key_pem)).toBe(private_key_base64);
    expect(pemToBase64(`-----BEGIN PUBLIC KEY-----\r\n${public_key_base64}\r\n-----END PUBLIC KEY-----\r\n`)).toBe(public_key_base64);
  });

  test("the same text is a private key to one call and a public key to another", () => {
    // Cached by kind: a private key looked up first must not be returned as the public one.
    expect(privateKeyFrom(private_key_pem).type).toBe("private");
    expect(() => publicKeyFrom(private_key_base64)).toThrow();
  });

  test("verify refuses: missing or empty sign, a changed field, a malformed key", () => {
    const s = rsaSign(params, private_key_pem);
    expect(rsaVerify(params, public_key_pem)).toBe(false);
    expect(rsaVerify({ ...params, sign: "" }, public_key_pem)).toBe(false);
    expect(rsaVerify({ ...params, sign: 5 as unknown as string }, public_key_pem)).toBe(false);
    expect(rsaVerify({ ...params, money: "1.01", sign: s }, public_key_pem)).toBe(false);
    expect(rsaVerify({ ...params, sign: s }, "bm90IGEga2V5")).toBe(false);
  });
});
