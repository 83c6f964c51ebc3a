// Merchants and keys through the real CLI (issue 15): keygen never replaces a merchant's V2 keys
// by accident, rotate-secret retires the old AppSecret at once (a running server within its one-
// second merchant cache), `merchant set` refuses empty and unknown changes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../../src/core/clock.ts";
import type { Gateway } from "../../src/core/gateway.ts";
import { MERCHANT_KEYS, MERCHANT_SETTING_KEYS } from "../../src/core/merchant-settings.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, type Harness, nativeCreate, SECRET, signed, tempDir } from "../helpers.ts";
import { post, v2Params } from "../epay-v2/sdk.ts";
import { cliOn, snapshot } from "./run-cli.ts";

const dir = tempDir("xpay-cli-keys-");
const db = join(dir, "keys.db");
const { xpay, json, refused } = cliOn(db);
let h: Harness;

const bare = (pem: string) => pem.replace(/-----(BEGIN|END)[^-]*-----/g, "").replace(/\s+/g, "");

/** A native create through the app (a running server on the same file), signed with `secret`. */
async function nativeCode(secret: string): Promise<{ code: number; msg: string }> {
  const { sign: _, ...params } = nativeCreate();
  const res = await h.app.handle(new Request("http://localhost/xpay/order/create", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(signed(params, secret)),
  }));
  return (await res.json()) as { code: number; msg: string };
}

async function v2Code(privatePem: string): Promise<number> {
  h.clock = new ManualClock();
  const res = await post(h, "create", v2Params(h, { merchantPrivate: bare(privatePem), merchantPublic: "" }));
  return ((await res.json()) as { code: number }).code;
}

beforeAll(async () => {
  const gw: Gateway = openGateway({ db, baseUrl: BASE });
  h = { gw, app: buildApp(gw), clock: new ManualClock(), dir, dbPath: db, close: () => gw.store.close() };
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
  await gw.store.addChannel({ pid: 0, payType: "alipay", code: "c1", name: "A", qrcode: "https://qr.alipay.com/1", now: gw.clock.now() });
});
afterAll(() => {
  h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("keygen", () => {
  test("refuses to replace a merchant's V2 keys unless --force, which retires the old private key", async () => {
    const first = json("keygen", "--pid", "1001");
    expect(await v2Code(first.merchant_private_key)).toBe(0);
    refused(["keygen", "--pid", "1001"], "merchant 1001 has V2 keys already; a new pair makes its current private key stop working: run again with --force to replace them");

    const r = xpay("keygen", "--pid", "1001", "--force");
    expect(r.code).toBe(0);
    expect(r.out).toContain("the previous key pair of merchant 1001 no longer works");
    const second = json("keygen", "--pid", "1001", "--force");
    expect(second.merchant_public_key).not.toBe(first.merchant_public_key);
    expect(json("merchant", "show", "1001").rsa_public_key).toBe(second.merchant_public_key);
    await Bun.sleep(1100); // the running server's merchant cache
    expect(await v2Code(first.merchant_private_key)).toBe(-1);
    expect(await v2Code(second.merchant_private_key)).toBe(0);
  });
});

describe("merchant rotate-secret", () => {
  test("the new AppSecret is shown once; a running server refuses the old one within a second", async () => {
    expect((await nativeCode(SECRET)).code).toBe(200); // the server has the merchant in its cache now
    const r = json("merchant", "rotate-secret", "1001");
    expect(r).toEqual({ pid: 1001, secret: expect.stringMatching(/^[0-9a-f]{32}$/) });
    await Bun.sleep(1100);
    expect((await nativeCode(SECRET)).msg).toStartWith("signature mismatch");
    expect((await nativeCode(r.secret)).code).toBe(200);
    expect(JSON.stringify(json("merchant", "show", "1001"))).not.toContain(r.secret);

    const human = xpay("merchant", "rotate-secret", "1001", "--secret", "n".repeat(20));
    expect(human.code).toBe(0);
    expect(human.out).toContain(`AppSecret ${"n".repeat(20)}`);
    expect(human.out).toContain("the old one no longer signs anything");
  });

  test("refusals", () => {
    refused(["merchant", "rotate-secret", "9"], "no merchant with pid 9");
    refused(["merchant", "rotate-secret", "1001", "--secret", "short"], "--secret must be at least 16 characters");
    refused(["merchant", "rotate-secret", "1001", "--secret", "n".repeat(20)], "--secret is the current AppSecret; give a new one");
  });
});

describe("merchant set", () => {
  const known = MERCHANT_KEYS.join(", ");
  test("nothing to set, unknown keys and bad values are refused", () => {
    refused(["merchant", "set", "1001"], "nothing to set: give --name, --notify-method or --setting key=value");
    refused(["merchant", "set", "1001", "--setting", "colour=red"], `unknown --setting colour; a merchant can set: ${known}`);
    // An operator-wide setting is not a per-merchant one: stored, it would never be read.
    refused(["merchant", "set", "1001", "--setting", "order_ttl=60"], `unknown --setting order_ttl; a merchant can set: ${known}`);
    refused(["merchant", "set", "1001", "--setting", "pay_tip=hi", "--setting", "typo=1"], `unknown --setting typo; a merchant can set: ${known}`);
    refused(["merchant", "set", "1001", "--setting", "pay_account_tip_cover=2"], "--setting pay_account_tip_cover must be one of: 0, 1");
    refused(["merchant", "set", "1001", "--setting", "pay_tip"], "--setting expects key=value, got pay_tip");
    refused(["merchant", "set", "1001", "--name", " "], "--name must not be empty");
    refused(["merchant", "set", "1001", "--notify-method", "PUT"], "--notify-method must be GET or POST");
  });

  test("a known key is set and removed with an empty value", () => {
    expect(xpay("merchant", "set", "1001", "--setting", "pay_tip=hello", "--setting", "audio_enable=1").code).toBe(0);
    expect(json("merchant", "show", "1001").settings).toEqual({ pay_tip: "hello", audio_enable: "1" });
    expect(xpay("merchant", "set", "1001", "--setting", "pay_tip=").code).toBe(0);
    expect(json("merchant", "show", "1001").settings).toEqual({ audio_enable: "1" });
  });

  test("the list is the cashier's: every key is a setting with a default", () => {
    const s = snapshot(db);
    for (const k of MERCHANT_SETTING_KEYS) expect(xpay("settings", "get", k).code).toBe(0);
    expect(snapshot(db)).toBe(s);
  });
});
