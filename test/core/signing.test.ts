// Known-answer vectors from shared/vectors/signing.json (checked against PHP's ksort/md5/openssl).
import { describe, expect, test } from "bun:test";
import { createHash, createSign, generateKeyPairSync } from "node:crypto";
import vectors from "../fixtures/signing.json";
import { canonicalString, md5Sign, md5Verify, pemToBase64, rsaSign, rsaVerify } from "../../src/protocols/signing.ts";

describe("MD5 vectors", () => {
  for (const v of vectors.md5) {
    test(v.name, () => {
      const params = v.params as unknown as Record<string, string | number>;
      expect(canonicalString(params, v.excluded)).toBe(v.canonical);
      expect(md5Sign(params, v.secret, v.excluded)).toBe(v.signature);
      const withSig = { ...params, [v.signature_field]: v.signature };
      expect(md5Verify(withSig, v.secret, v.signature_field, v.excluded)).toBe(true);
      expect(md5Verify(withSig, v.secret + "x", v.signature_field, v.excluded)).toBe(false);
      const first = Object.keys(params).find((k) => params[k] !== "")!;
      expect(md5Verify({ ...withSig, [first]: String(params[first]) + "1" }, v.secret, v.signature_field, v.excluded)).toBe(false);
    });
  }
});

describe("RSA vectors", () => {
  const { private_key_pem, public_key_pem, public_key_base64, private_key_base64 } = vectors.rsa;
  for (const c of vectors.rsa.cases) {
    test(c.name, () => {
      const params = c.params as unknown as Record<string, string | number>;
      expect(canonicalString(params, ["sign", "sign_type"])).toBe(c.canonical);
      expect(rsaSign(params, private_key_pem)).toBe(c.signature);
      expect(rsaSign(params, private_key_base64)).toBe(c.signature);
      expect(rsaVerify({ ...params, sign: c.signature }, public_key_pem)).toBe(true);
      expect(rsaVerify({ ...params, sign: c.signature }, public_key_base64)).toBe(true);
      expect(rsaVerify({ ...params, timestamp: "1", sign: c.signature }, public_key_pem)).toBe(false);
    });
  }
  test("a signature by another key does not verify; malformed input is a plain false", () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
    const params = { a: "1", b: "测试" };
    const s = createSign("RSA-SHA256").update("a=1&b=测试").sign(other.privateKey, "base64");
    expect(rsaVerify({ ...params, sign: s }, other.publicKey)).toBe(true);
    expect(rsaVerify({ ...params, sign: s }, public_key_pem)).toBe(false);
    expect(rsaVerify({ ...params, sign: "!!notbase64" }, public_key_pem)).toBe(false);
    expect(rsaVerify({ ...params, sign: s }, "not a key")).toBe(false);
    expect(pemToBase64(public_key_pem)).toBe(public_key_base64);
  });
});

describe("MD5 verify with empty values kept (epay V1 requests only)", () => {
  const p = { pid: "1001", clientip: "", money: "10", type: "alipay" };
  const kept = createHash("md5").update("clientip=&money=10&pid=1001&type=alipay" + "k3y", "utf8").digest("hex");
  test("accepted only when asked for, and only over the values sent", () => {
    expect(canonicalString(p, ["sign"], { keepEmpty: true })).toBe("clientip=&money=10&pid=1001&type=alipay");
    expect(md5Verify({ ...p, sign: kept }, "k3y", "sign", ["sign"])).toBe(false);
    expect(md5Verify({ ...p, sign: kept }, "k3y", "sign", ["sign"], { alsoKeptEmpty: true })).toBe(true);
    expect(md5Verify({ ...p, clientip: "1.2.3.4", sign: kept }, "k3y", "sign", ["sign"], { alsoKeptEmpty: true })).toBe(false);
    expect(md5Verify({ ...p, money: "11", sign: kept }, "k3y", "sign", ["sign"], { alsoKeptEmpty: true })).toBe(false);
    // The spec's signature still verifies with the option on.
    expect(md5Verify({ ...p, sign: md5Sign(p, "k3y", ["sign"]) }, "k3y", "sign", ["sign"], { alsoKeptEmpty: true })).toBe(true);
  });
});
