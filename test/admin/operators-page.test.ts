// Issue 28, /admin/operators: console operators on `xpay admin`'s core functions: add (the
// credential rules under their fields, 422, nothing added), reset another's password (its sessions
// end; audited), remove (never yourself, never the last one; audited).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
beforeAll(async () => {
  h = await adminHarness();
});
afterAll(() => h.close());

const names = async () => (await h.gw.store.admin.listOperators()).map((o) => o.name).sort();

test("the list marks you; no remove or reset on your own row", async () => {
  const html = await (await h.get("/admin/operators")).text();
  expect(html).toContain('href="/admin/operators"');
  const row = html.slice(html.indexOf(`data-operator="${h.operator.name}"`));
  expect(row.slice(0, row.indexOf("</tr>"))).not.toContain("/remove");
});

test("add: bad inputs 422 under the field, nothing added; then added and audited", async () => {
  const before = await names();
  const cases: [Record<string, string>, string][] = [
    [{ name: "bad name", password: "a long enough pass", repeat: "a long enough pass" }, "用户名为 1–32 个字符"],
    [{ name: "cli", password: "a long enough pass", repeat: "a long enough pass" }, "该名称为系统保留"],
    [{ name: "bob", password: "short", repeat: "short" }, "密码至少 10 个字符"],
    [{ name: "bob", password: "a long enough pass", repeat: "another one here" }, "两次输入的密码不一致"],
    [{ name: h.operator.name, password: "a long enough pass", repeat: "a long enough pass" }, "已有同名操作员"],
  ];
  for (const [form, words] of cases) {
    const r = await h.post("/admin/operators", form);
    expect(r.status).toBe(422);
    const html = await r.text();
    expect(html).toContain(words);
    expect(html).not.toContain("a long enough pass");
  }
  expect(await names()).toEqual(before);
  const r = await h.post("/admin/operators", { name: "bob", password: "a long enough pass", repeat: "a long enough pass" });
  expect(r.status).toBe(303);
  expect(await names()).toContain("bob");
  expect((await auditRows(h)).at(-1)!.action).toBe("operator.add");
});

test("reset bob's password: his sessions end, audited; not your own here", async () => {
  const bob = (await h.gw.store.admin.findOperator("bob"))!;
  const his = await h.session(bob);
  expect((await h.get("/admin", { cookie: his.cookie })).status).toBe(200);
  expect((await h.post("/admin/operators/bob/password", { password: "short", repeat: "short" })).status).toBe(422);
  const r = await h.post("/admin/operators/bob/password", { password: "a new long password", repeat: "a new long password" });
  expect(r.status).toBe(303);
  expect(r.headers.get("location")).toContain("done=reset");
  expect((await h.get("/admin", { cookie: his.cookie })).status).not.toBe(200);
  expect((await auditRows(h)).at(-1)!.action).toBe("operator.password");
  expect((await h.post(`/admin/operators/${h.operator.name}/password`, { password: "a new long password", repeat: "a new long password" })).status).toBe(404);
});

test("remove: not yourself, not the last; bob removed and audited", async () => {
  const self = await h.post(`/admin/operators/${h.operator.name}/remove`, {});
  expect(self.status).toBe(409);
  expect(await self.text()).toContain("不能删除自己");
  const r = await h.post("/admin/operators/bob/remove", {});
  expect(r.status).toBe(303);
  expect(await names()).toEqual([h.operator.name]);
  expect((await auditRows(h)).at(-1)!.action).toBe("operator.remove");
  expect((await h.post("/admin/operators/nobody/remove", {})).status).toBe(404);
});
