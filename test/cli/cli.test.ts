// Runs the real CLI as a child process against a temp database, as an operator would.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-");
const db = join(dir, "cli.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { xpay, json } = cliOn(db);

describe("xpay CLI", () => {
  test("merchant add prints pid and secret; list hides the secret; the db file is private", () => {
    expect(xpay("migrate").code).toBe(0); // only serve and migrate create a database
    const m = json("merchant", "add", "--name", "Shop");
    expect(m).toEqual({ pid: 1001, name: "Shop", secret: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(json("merchant", "add", "--name", "Two", "--pid", "2000", "--secret", "s".repeat(20)).pid).toBe(2000);
    const list = json("merchant", "list");
    expect(list.map((x: any) => x.pid)).toEqual([1001, 2000]);
    expect(JSON.stringify(list)).not.toContain(m.secret);
    expect(statSync(db).mode & 0o777).toBe(0o600);
    const dup = xpay("merchant", "add", "--name", "X", "--pid", "2000");
    expect(dup.code).toBe(1);
    expect(dup.err.trim()).toBe("error: a merchant with pid 2000 exists already");
  });

  test("merchant disable/set/show", () => {
    expect(xpay("merchant", "disable", "2000").code).toBe(0);
    expect(xpay("merchant", "set", "1001", "--notify-method", "get").code).toBe(0);
    const shown = json("merchant", "show", "1001");
    expect(shown).toMatchObject({ pid: 1001, notify_method: "GET", active: true });
    expect(shown.secret).toBeUndefined();
    expect(json("merchant", "show", "2000").active).toBe(false);
    expect(xpay("merchant", "show", "9").err).toContain("no merchant with pid 9");
  });

  test("channel add/list/disable with amounts in yuan (--json in cents)", () => {
    const a = json("channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "c1", "--name", "A", "--qrcode", "https://qr.alipay.com/x", "--min", "1", "--max", "500.00", "--day", "0");
    expect(a).toMatchObject({ id: 1, pid: 0, pay_type: "alipay", min_amount_cents: 100, max_amount_cents: 50000, day_amount_cents: 0, enabled: true });
    expect(xpay("channel", "add", "--pid", "77", "--pay-type", "alipay", "--code", "c", "--name", "n", "--qrcode", "https://qr.alipay.com/q").err).toContain("no merchant with pid 77");
    expect(xpay("channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "c", "--name", "n", "--qrcode", "https://qr.alipay.com/q", "--min", "1.505").err).toContain('--min: "1.505" is not an amount in yuan');
    expect(xpay("channel", "disable", "1").code).toBe(0);
    expect(json("channel", "list")[0].enabled).toBe(false);
  });

  test("keygen stores the public key and prints a working pair plus the platform key", async () => {
    const k = json("keygen", "--pid", "1001");
    expect(k.merchant_private_key).toContain("BEGIN PRIVATE KEY");
    expect(k.platform_public_key).toContain("BEGIN PUBLIC KEY");
    const { createSign, createVerify } = await import("node:crypto");
    const sig = createSign("RSA-SHA256").update("x").sign(k.merchant_private_key, "base64");
    expect(createVerify("RSA-SHA256").update("x").verify(k.merchant_public_key, sig, "base64")).toBe(true);
    expect(json("merchant", "show", "1001").rsa_public_key).toBe(k.merchant_public_key);
    expect(json("keygen", "--pid", "1001", "--force").platform_public_key).toBe(k.platform_public_key);
  });

  test("settings validate, order commands report missing orders, errors are one line", () => {
    expect(xpay("settings", "set", "order_ttl", "600").code).toBe(0);
    expect(xpay("settings", "get", "order_ttl").out.trim()).toBe("600");
    const bad = xpay("settings", "set", "offset_direction", "sideways");
    expect(bad.code).toBe(1);
    expect(bad.err.trim().split("\n")).toHaveLength(1);
    expect(xpay("settings", "--help").out).toContain("third_account_secret");
    expect(json("order", "list")).toEqual([]);
    expect(xpay("order", "inspect", "123").err.trim()).toBe("error: no order 123");
    expect(xpay("nope").code).not.toBe(0);
  });
});

describe("xpay operations", () => {
  test("migrate reports applied migrations; backup writes a copy", () => {
    const m = json("migrate");
    expect(m.applied).toEqual([]);
    expect(m.migrations[0]).toMatchObject({ version: 1, applied: true });
    const target = join(dir, "copy.db");
    expect(xpay("backup", target).code).toBe(0);
    expect(statSync(target).size).toBeGreaterThan(0);
    const again = xpay("backup", target);
    expect(again.code).toBe(1);
    expect(again.err).toContain("exists already");
  });
});
