// `xpay channel add / edit / remove` through the real CLI: what cannot take a payment is refused
// at once, in one line, and leaves the database as it was (issue 15, accounts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Gateway } from "../../src/core/gateway.ts";
import { buildApp } from "../../src/server/app.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { BASE, nativeCreate, SECRET, tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-channel-");
const db = join(dir, "channel.db");
const { xpay, json, refused } = cliOn(db);
let gw: Gateway;
let app: ReturnType<typeof buildApp>;

const add = (...extra: string[]) => ["channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "new", "--name", "N", "--qrcode", "https://qr.alipay.com/n", ...extra];

/** A native create of merchant 1001 through the app: the order takes one of its alipay accounts. */
async function orderOn(): Promise<{ trade_no: string }> {
  const res = await app.handle(new Request("http://localhost/xpay/order/create", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(nativeCreate({ money: "3.00" })),
  }));
  const body = (await res.json()) as { code: number; data: { trade_no: string } };
  expect(body.code).toBe(200);
  return body.data;
}

beforeAll(async () => {
  gw = openGateway({ db, baseUrl: BASE });
  app = buildApp(gw);
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: SECRET, now: gw.clock.now() });
  await gw.store.addMerchant({ pid: 1002, name: "Other", secret: SECRET, now: gw.clock.now() });
  // 1: shared alipay "c1" (min ¥2.00); 2: merchant 1001's wxpay "w1".
  json("channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "c1", "--name", "Shared", "--qrcode", "https://qr.alipay.com/1", "--min", "2");
  json("channel", "add", "--pid", "1001", "--pay-type", "wxpay", "--code", "w1", "--name", "Own", "--qrcode", "wxp://1");
});
afterAll(() => {
  gw.store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("channel add refuses what cannot take a payment", () => {
  const cases: [string, string[], string][] = [
    ["empty qrcode", add().slice(0, -1).concat(""), "--qrcode must not be empty: it is what the payer scans (e.g. https://qr.alipay.com/...)"],
    ["blank qrcode", add().slice(0, -1).concat("   "), "--qrcode must not be empty: it is what the payer scans (e.g. https://qr.alipay.com/...)"],
    ["min above max", add("--min", "50", "--max", "10"), "--min ¥50.00 is above --max ¥10.00: no order could fit"],
    ["day below min", add("--min", "5", "--day", "1.00"), "--day ¥1.00 is below --min ¥5.00: the account could never take an order"],
    ["three decimals", add("--max", "5.001"), '--max: "5.001" is not an amount in yuan; write it like 500 or 500.00'],
    ["not a number", add("--day", "abc"), '--day: "abc" is not an amount in yuan; write it like 500 or 500.00'],
    ["negative", add("--min=-5"), '--min: "-5" is not an amount in yuan; write it like 500 or 500.00'],
    ["a comma", add("--max", "1,000"), '--max: "1,000" is not an amount in yuan; write it like 500 or 500.00'],
    ["above the largest amount", add("--day", "100000000"), '--day: "100000000" is more than ¥99999999.99, the most it can be'],
    ["alipay QR content that is not a URL", add().slice(0, -1).concat("not a url"),
      '--qrcode must be a URL such as https://qr.alipay.com/...: it is what the payer scans (got "not a url"; --force does not change this)'],
    ["not a URL, even with --force", add("--force").slice(0, -2).concat("not a url", "--force"),
      '--qrcode must be a URL such as https://qr.alipay.com/...: it is what the payer scans (got "not a url"; --force does not change this)'],
    ["a WeChat code on an alipay account", add().slice(0, -1).concat("wxp://f2f0abc"),
      '--qrcode for pay type alipay is usually https://qr.alipay.com/... (got "wxp://f2f0abc"); check it is the account\'s collection code, then add --force to save it anyway'],
    ["unknown pay type", ["channel", "add", "--pid", "0", "--pay-type", "wechat", "--code", "x", "--name", "n", "--qrcode", "https://qr.alipay.com/q"], "--pay-type must be one of: alipay, wxpay, qqpay (got wechat)"],
    ["pay type of no rule", ["channel", "add", "--pid", "0", "--pay-type", "bank", "--code", "x", "--name", "n", "--qrcode", "https://qr.alipay.com/q"], "--pay-type must be one of: alipay, wxpay, qqpay (got bank)"],
    ["same code, owner, pay type", ["channel", "add", "--pid", "1001", "--pay-type", "wxpay", "--code", "w1", "--name", "n", "--qrcode", "wxp://q"],
      "--code w1 is taken by account 2 (pid 1001, wxpay): a report naming the code could not tell them apart; choose another code"],
    ["own code equal to a shared one", ["channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "c1", "--name", "n", "--qrcode", "https://qr.alipay.com/q"],
      "--code c1 is taken by account 1 (pid 0, alipay): a report naming the code could not tell them apart; choose another code"],
    ["shared code equal to an own one", ["channel", "add", "--pid", "0", "--pay-type", "wxpay", "--code", " w1 ", "--name", "n", "--qrcode", "wxp://q"],
      "--code w1 is taken by account 2 (pid 1001, wxpay): a report naming the code could not tell them apart; choose another code"],
    ["empty code", ["channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "", "--name", "n", "--qrcode", "https://qr.alipay.com/q"], "--code must not be empty: monitoring clients report it as channel_code"],
    ["blank name", ["channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "x", "--name", " ", "--qrcode", "https://qr.alipay.com/q"], "--name must not be empty"],
    ["code too long to report", ["channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "c".repeat(65), "--name", "n", "--qrcode", "https://qr.alipay.com/q"],
      "--code must be at most 64 characters (the report API's channel_code limit)"],
    ["unknown merchant", ["channel", "add", "--pid", "77", "--pay-type", "alipay", "--code", "x", "--name", "n", "--qrcode", "https://qr.alipay.com/q"], "no merchant with pid 77 (use --pid 0 for a shared account)"],
  ];
  for (const [name, args, message] of cases) test(name, () => refused(args, message));

  test("the same code is fine for another merchant or another pay type", () => {
    expect(json("channel", "add", "--pid", "1002", "--pay-type", "wxpay", "--code", "w1", "--name", "B", "--qrcode", "wxp://b")).toMatchObject({ id: 3, pid: 1002 });
    expect(json("channel", "add", "--pid", "1001", "--pay-type", "qqpay", "--code", "w1", "--name", "Q", "--qrcode", "https://i.qianbao.qq.com/q", "--min", "50", "--max", "0"))
      .toMatchObject({ id: 4, pay_type: "qqpay", min_amount_cents: 5000, max_amount_cents: 0 });
  });

  test("every amount option and the command itself say yuan", () => {
    for (const cmd of ["add", "edit"]) {
      const help = xpay("channel", cmd, "--help").out.replace(/\s+/g, " ");
      for (const flag of ["--min <yuan>", "--max <yuan>", "--day <yuan>"]) expect(help).toMatch(new RegExp(`${flag} [^-]*in yuan`));
      expect(help).toContain("amounts are in yuan");
      expect(help).not.toContain("cents");
    }
  });
});

describe("channel edit changes any field with the same checks", () => {
  test("refusals leave the account as it was", () => {
    refused(["channel", "edit", "1"], "nothing to change: give at least one of --pid, --pay-type, --code, --name, --qrcode, --scheme, --min, --max, --day, --sort, --remark");
    refused(["channel", "edit", "99", "--name", "x"], "no account with id 99");
    refused(["channel", "edit", "1", "--qrcode", ""], "--qrcode must not be empty: it is what the payer scans (e.g. https://qr.alipay.com/...)");
    // The stored min (200) is checked with the new max.
    refused(["channel", "edit", "1", "--max", "1"], "--min ¥2.00 is above --max ¥1.00: no order could fit");
    refused(["channel", "edit", "1", "--max", "9.999"], '--max: "9.999" is not an amount in yuan; write it like 500 or 500.00');
    refused(["channel", "edit", "1", "--qrcode", "https://qr.alipay.com"], '--qrcode for pay type alipay is usually https://qr.alipay.com/... (got "https://qr.alipay.com"); check it is the account\'s collection code, then add --force to save it anyway');
    refused(["channel", "edit", "1", "--pay-type", "wechat"], "--pay-type must be one of: alipay, wxpay, qqpay (got wechat)");
    refused(["channel", "edit", "2", "--pid", "0", "--pay-type", "alipay", "--code", "c1"],
      "--code c1 is taken by account 1 (pid 0, alipay): a report naming the code could not tell them apart; choose another code");
    refused(["channel", "edit", "2", "--name", ""], "--name must not be empty");
    refused(["channel", "edit", "2", "--pid", "55"], "no merchant with pid 55 (use --pid 0 for a shared account)");
  });

  test("every field changes; the others stay", () => {
    const { watched_by, ...before } = json("channel", "list").find((a: { id: number }) => a.id === 2);
    expect(watched_by).toEqual(["AppSecret of 1001"]); // list says who can report a payment there
    const after = json("channel", "edit", "2", "--name", " Own 2 ", "--code", "w2", "--qrcode", "wxp://2", "--scheme", "weixin://x", "--remark", "r",
      "--min", "1", "--max", "200.00", "--day", "5000.5", "--sort", "3");
    expect(after).toEqual({ ...before, name: "Own 2", code: "w2", qrcode: "wxp://2", scheme: "weixin://x", remark: "r", min_amount_cents: 100, max_amount_cents: 20000, day_amount_cents: 500050, sort: 3 });
    expect(json("channel", "edit", "2", "--scheme", "", "--remark", "")).toMatchObject({ scheme: "", remark: "", name: "Own 2" });
    // No order used it yet: owner and pay type may change too.
    // A new pay type reads the QR content for that type: wxp:// is not a QQ code.
    refused(["channel", "edit", "2", "--pid", "1002", "--pay-type", "qqpay"], '--qrcode for pay type qqpay is usually https://i.qianbao.qq.com/... (got "wxp://2"); check it is the account\'s collection code, then add --force to save it anyway');
    expect(json("channel", "edit", "2", "--pid", "1002", "--pay-type", "qqpay", "--qrcode", "https://i.qianbao.qq.com/2")).toMatchObject({ id: 2, pid: 1002, pay_type: "qqpay", code: "w2" });
    expect(json("channel", "list").find((a: { id: number }) => a.id === 2)).toMatchObject({ pid: 1002, pay_type: "qqpay", min_amount_cents: 100 });
  });

  test("an account of a pay type xpay no longer knows stays editable while its type stays", async () => {
    const old = await gw.store.addChannel({ pid: 0, payType: "usdt", code: "u", name: "Old", qrcode: "q", now: gw.clock.now() });
    expect(json("channel", "edit", String(old.id), "--name", "Old 2")).toMatchObject({ pay_type: "usdt", name: "Old 2" });
    refused(["channel", "edit", String(old.id), "--pay-type", "bank"], "--pay-type must be one of: alipay, wxpay, qqpay (got bank)");
    expect(xpay("channel", "remove", String(old.id)).code).toBe(0);
  });
});

describe("channel remove, and accounts that orders used", () => {
  test("an account no order used is removed", () => {
    const a = json(...add());
    const r = xpay("channel", "remove", String(a.id));
    expect({ code: r.code, out: r.out, err: r.err }).toEqual({ code: 0, out: `account ${a.id} removed\n`, err: "" });
    expect(json("channel", "list").map((x: { id: number }) => x.id)).not.toContain(a.id);
    refused(["channel", "remove", String(a.id)], `no account with id ${a.id}`);
  });

  test("a used account is not removed, keeps its owner and pay type, and its other fields still change", async () => {
    const order = await orderOn();
    expect((await gw.store.getOrder(order.trade_no))!.accountId).toBe(1);
    refused(["channel", "remove", "1"], "account 1 was used by 1 order(s) and cannot be removed; `xpay channel disable 1` stops new orders on it");
    const stop = "its --pid and --pay-type cannot change; add a new account and `xpay channel disable 1`";
    refused(["channel", "edit", "1", "--pid", "1001"], `account 1 was used by 1 order(s): ${stop}`);
    refused(["channel", "edit", "1", "--pay-type", "wxpay"], `account 1 was used by 1 order(s): ${stop}`);
    expect(json("channel", "edit", "1", "--qrcode", "https://qr.alipay.com/new")).toMatchObject({ id: 1, qrcode: "https://qr.alipay.com/new" });
    expect(xpay("channel", "disable", "1").out).toBe("account 1 disabled\n");
  });
});

describe("--qrcode per pay type (issue 31)", () => {
  const addQr = (payType: string, code: string, qr: string, ...extra: string[]) =>
    ["channel", "add", "--pid", "1002", "--pay-type", payType, "--code", code, "--name", "Q", "--qrcode", qr, ...extra];

  test("each app's usual collection code is saved as typed", () => {
    expect(json(...addQr("alipay", "qa", "HTTPS://QR.ALIPAY.COM/FKX0001"))).toMatchObject({ qrcode: "HTTPS://QR.ALIPAY.COM/FKX0001" });
    expect(json(...addQr("wxpay", "qw", "wxp://f2f0abc"))).toMatchObject({ qrcode: "wxp://f2f0abc" });
    expect(json(...addQr("qqpay", "qq", "https://i.qianbao.qq.com/wallet/sqrcode.htm?m=1"))).toMatchObject({ pay_type: "qqpay" });
  });

  test("another URL only with --force; not a URL never", () => {
    refused(addQr("wxpay", "qw2", "https://example.com/wx"),
      '--qrcode for pay type wxpay is usually wxp://... (got "https://example.com/wx"); check it is the account\'s collection code, then add --force to save it anyway');
    expect(json(...addQr("wxpay", "qw2", "https://example.com/wx", "--force"))).toMatchObject({ qrcode: "https://example.com/wx" });
    refused(addQr("qqpay", "qq2", "not a url", "--force"),
      '--qrcode must be a URL such as https://i.qianbao.qq.com/...: it is what the payer scans (got "not a url"; --force does not change this)');
  });

  test("edit checks a new content, and keeps an old one while other fields change", async () => {
    const old = await gw.store.addChannel({ pid: 1002, payType: "alipay", code: "legacy", name: "L", qrcode: "q", now: gw.clock.now() });
    expect(json("channel", "edit", String(old.id), "--max", "20")).toMatchObject({ qrcode: "q", max_amount_cents: 2000 });
    refused(["channel", "edit", String(old.id), "--qrcode", "qq"], '--qrcode must be a URL such as https://qr.alipay.com/...: it is what the payer scans (got "qq"; --force does not change this)');
    expect(json("channel", "edit", String(old.id), "--qrcode", "https://qr.alipay.com/fkx9")).toMatchObject({ qrcode: "https://qr.alipay.com/fkx9" });
  });
});
