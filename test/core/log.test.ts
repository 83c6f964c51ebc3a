import { describe, expect, test } from "bun:test";
import { mask, maskUrlPath } from "../../src/core/log.ts";
import { createLogger } from "../../src/server/logger.ts";

describe("logs never carry secrets", () => {
  test("sign, key, hash, secrets and PEM keys are masked, other fields kept", () => {
    const m = mask({ sign: "abc", key: "k", hash: "h", secret: "s", merchant_private_key: "x", note: "-----BEGIN PRIVATE KEY-----\nAAA", pid: 1001, nested: { app_secret: "z", ok: 1 } });
    expect(m).toEqual({ sign: "***", key: "***", hash: "***", secret: "***", merchant_private_key: "***", note: "***", pid: 1001, nested: { app_secret: "***", ok: 1 } });
  });
  test("query strings lose their secret values", () => {
    expect(maskUrlPath("/xpay/epay/api.php?act=order&pid=1001&key=SECRET123&trade_no=1")).toBe("/xpay/epay/api.php?act=order&pid=1001&key=***&trade_no=1");
    expect(maskUrlPath("/healthz")).toBe("/healthz");
  });
  test("json and pretty loggers write masked lines", () => {
    const lines: string[] = [];
    createLogger("json", (l) => lines.push(l)).event("http", { path: "/x", sign: "deadbeef" });
    createLogger("pretty", (l) => lines.push(l)).error("boom", { key: "SECRET123" });
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "info", event: "http", path: "/x", sign: "***" });
    expect(lines.join("\n")).not.toContain("deadbeef");
    expect(lines.join("\n")).not.toContain("SECRET123");
  });
});
