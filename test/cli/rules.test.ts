// `xpay rules` (issue 18) on the real CLI: add (checked), list, test against the stored
// unrecognised messages, remove, unparsed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openGateway } from "../../src/server/bootstrap.ts";
import { tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-rules-cli-");
const db = join(dir, "xpay.db");
const { xpay, json, refused } = cliOn(db);
const A = String.raw`(?<amount>\d+(?:\.\d{1,2})?)`;
const pattern = ["--package", "com.tencent.mm", "--title", "微信支付", "--text", `^收款到账${A}元，来自.{1,20}$`, "--pay-type", "wxpay"];

beforeAll(async () => {
  const gw = openGateway({ db });
  await gw.store.addMerchant({ pid: 1001, name: "Shop", secret: "s".repeat(32), now: 1 });
  const kept = (key: string, title: string, text: string, now: number) =>
    gw.store.rules.recordUnparsed({ pid: 1001, key, pkg: "com.tencent.mm", title, text, reason: "no payment wording matched", now }, { total: 500 });
  await kept("a", "微信支付", "收款到账13.22元，来自张三", 1_800_000_000);
  await kept("b", "微信支付", "收款到账5元，来自李四", 1_800_000_100);
  await kept("c", "某某交流群", "[3条]张三: 收款码到账¥13.22", 1_800_000_200);
  gw.store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("xpay rules", () => {
  test("unparsed lists the kept messages, most recent first", () => {
    const rows = json("rules", "unparsed");
    expect(rows.map((r: { text: string }) => r.text)).toEqual(["[3条]张三: 收款码到账¥13.22", "收款到账5元，来自李四", "收款到账13.22元，来自张三"]);
    const table = xpay("rules", "unparsed", "--limit", "1");
    expect(table.out).toContain("[3条]张三: 收款码到账¥13.22");
    expect(table.out.trim().split("\n").length).toBe(2);
  });

  test("test shows which kept messages a rule recognises, and that it would save", () => {
    const r = json("rules", "test", ...pattern);
    expect(r.saves).toBe(true);
    expect(r.chat_samples).toEqual([]);
    expect(r.matches.map((m: { text: string; amount_cents: number }) => [m.text, m.amount_cents])).toEqual([["收款到账5元，来自李四", 500], ["收款到账13.22元，来自张三", 1322]]);
    const table = xpay("rules", "test", ...pattern);
    expect(table.code).toBe(0);
    expect(table.out).toContain("checks: passed");
    expect(table.out).toContain("13.22");
  });

  test("test of a rule that takes chats: refused, the samples named, exit 1", () => {
    const r = xpay("rules", "test", "--package", "com.tencent.mm", "--title", "微信支付", "--text", `^.{0,9}收款码到账¥${A}$`, "--pay-type", "wxpay");
    expect(r.code).toBe(1);
    expect(r.out).toContain("checks: refused: the rule takes a chat-like message");
    expect(r.out).toContain("takes chat-like samples: contact 微信支付 sends the issue's wording");
  });

  test("add refuses what does not check, in one line, and changes nothing", () => {
    refused(["rules", "add", ...pattern.slice(0, 4), "--text", "^收款到账(\\d+元$", "--pay-type", "wxpay"],
      "--text is not a pattern the linear-time engine runs (RE2 syntax: no look-around or back-reference): missing closing ): `^收款到账(\\d+元$`");
    refused(["rules", "add", ...pattern.slice(0, 4), "--text", "收款到账(?<amount>\\d+)元", "--pay-type", "wxpay"],
      "--text must be anchored: start with ^ and end with $ (the whole text, not a part of it)");
    refused(["rules", "add", "--title", "^x$"], "missing required options: --package, --text, --pay-type (see xpay rules add --help)");
    expect(json("rules", "list")).toEqual([]);
  });

  test("add, list, a second with the same name refused, remove", () => {
    const added = xpay("rules", "add", ...pattern);
    expect(added.err).toBe("");
    expect(added.out).toStartWith("rule wxpay-1 added");
    expect(json("rules", "list")).toEqual([expect.objectContaining({ name: "wxpay-1", package: "com.tencent.mm", pay_type: "wxpay", titles: ["微信支付"], status: "on" })]);
    expect(json("rules", "test", "wxpay-1").matches.length).toBe(2);
    refused(["rules", "add", ...pattern, "--name", "wxpay-1"], "a rule named wxpay-1 exists already; choose another --name or remove it first");
    expect(xpay("rules", "remove", "wxpay-1").out).toBe("rule wxpay-1 removed\n");
    refused(["rules", "remove", "wxpay-1"], "no rule named wxpay-1; see xpay rules list");
    refused(["rules", "test", "wxpay-1"], "no rule named wxpay-1; see xpay rules list");
  });

  test("a title is names: --title once per name; a pattern as a title is refused (issue 27, item 9)", () => {
    const two = ["--package", "com.tencent.mm", "--title", "微信支付", "--title", "微信收款助手", ...pattern.slice(4), "--name", "two"];
    expect(json("rules", "add", ...two)).toMatchObject({ name: "two", titles: ["微信支付", "微信收款助手"], status: "on" });
    expect(xpay("rules", "list").out).toContain("微信支付 | 微信收款助手");
    refused(["rules", "add", "--package", "com.tencent.mm", "--title", String.raw`^(?:微信支付|[\u4e00-\u9fa5]{3})$`, ...pattern.slice(4)],
      "--title is the sender's exact name, not a pattern: give each name with its own --title (--title 微信支付 --title 微信收款助手)");
    expect(xpay("rules", "remove", "two").code).toBe(0);
  });

  test("add and remove are audited as cli, with the rule before and after; test stays a reader (issue 27, item 10)", () => {
    xpay("rules", "add", ...pattern, "--name", "audited");
    xpay("rules", "test", "audited");
    xpay("rules", "remove", "audited");
    const rule = { name: "audited", package: "com.tencent.mm", pay_type: "wxpay", titles: ["微信支付"], text: pattern[5] };
    const entries = json("audit", "list", "--user", "cli").filter((e: { target: string }) => e.target === "rule:audited");
    expect(entries.map((e: { action: string; before: unknown; after: unknown }) => [e.action, e.before, e.after])).toEqual([
      ["rule.remove", rule, null],
      ["rule.add", null, rule],
    ]);
  });
});
