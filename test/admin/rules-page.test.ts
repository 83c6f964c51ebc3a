// Issue 28, /admin/rules: payment rules from the console on `xpay rules`' core functions: try
// (the checks and the stored unrecognised notifications it takes, with the amount; nothing saved),
// add (refused 422 with the check's words and nothing saved; audited), remove (audited).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { AMOUNT_EXAMPLE } from "../../src/core/rules/check.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
const GOOD = { package: "com.tencent.mm", titles: "微信支付\n微信收款助手", text: `^收款到账${AMOUNT_EXAMPLE}元，来自.{1,20}$`, pay_type: "wxpay", name: "wx-new" };
beforeAll(async () => {
  h = await adminHarness();
  await h.gw.store.rules.recordUnparsed({ pid: 1001, key: "k1", pkg: "com.tencent.mm", title: "微信支付", text: "收款到账66.60元，来自张三", reason: "no format", now: h.clock.now() }, { total: 500 });
  await h.gw.store.rules.recordUnparsed({ pid: 1001, key: "k2", pkg: "com.tencent.mm", title: "微信支付", text: "蚂蚁森林能量", reason: "no format", now: h.clock.now() }, { total: 500 });
});
afterAll(() => h.close());

test("the menu has 收款规则; an empty list", async () => {
  const html = await (await h.get("/admin/rules")).text();
  expect(html).toContain('href="/admin/rules"');
  expect(html).toContain("还没有自己的规则");
});

test("try: passes, shows the stored message it takes and the amount; nothing saved, no audit row", async () => {
  const rows = (await auditRows(h)).length;
  const r = await h.post("/admin/rules", { ...GOOD, do: "test" });
  expect(r.status).toBe(200);
  const html = await r.text();
  expect(html).toContain("检查通过：可以保存。");
  expect(html).toContain("它能识别的已存未识别通知：1 条");
  expect(html).toContain("66.60");
  expect(html).not.toContain("蚂蚁森林能量</td>");
  expect(await h.gw.store.rules.listRules()).toEqual([]);
  expect((await auditRows(h)).length).toBe(rows);
});

test("add refused: 422 with the check's words, nothing saved", async () => {
  const r = await h.post("/admin/rules", { ...GOOD, titles: "微信", do: "add" });
  expect(r.status).toBe(422);
  const html = await r.text();
  expect(html).toContain("可能是联系人、群或应用自带聊天的名字"); // the check's words, in the page's language
  expect(html).not.toContain("is a name a contact");
  expect(await h.gw.store.rules.listRules()).toEqual([]);
});

test("add, listed as on, audited; remove, audited", async () => {
  const r = await h.post("/admin/rules", { ...GOOD, do: "add" });
  expect(r.status).toBe(303);
  expect((await h.gw.store.rules.listRules()).map((x) => x.name)).toEqual(["wx-new"]);
  const list = await (await h.get("/admin/rules")).text();
  expect(list).toContain('data-rule="wx-new"');
  expect(list).toContain("微信支付 | 微信收款助手");
  expect((await auditRows(h)).at(-1)!.action).toStartWith("rule");
  expect((await h.post("/admin/rules/nope/remove", {})).status).toBe(404);
  expect((await h.post("/admin/rules/wx-new/remove", {})).status).toBe(303);
  expect(await h.gw.store.rules.listRules()).toEqual([]);
  expect((await auditRows(h)).at(-1)!.action).toStartWith("rule");
  expect((await auditRows(h)).at(-1)!.action).toContain("remove");
});
