// Issue 28, /admin/alerts: alert channels from the console on `xpay alert`'s core functions: add
// (the rule's refusal 422, nothing added; a generated webhook secret shown once), test (a real
// loopback webhook receives the sample; the answer shown; audited), remove (audited), history.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
const got: string[] = [];
let hook: ReturnType<typeof Bun.serve>;
beforeAll(async () => {
  h = await adminHarness();
  hook = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => (got.push(await req.text()), new Response("ok")) });
});
afterAll(() => {
  hook.stop(true);
  h.close();
});

test("the menu has 告警; an empty list says alerts reach nobody", async () => {
  const html = await (await h.get("/admin/alerts")).text();
  expect(html).toContain('href="/admin/alerts"');
  expect(html).toContain("还没有告警通道");
  expect(await (await h.get("/admin/alerts?type=telegram")).text()).toContain('name="o_chat_id"');
});

test("bad inputs: 422 with the rule's words, nothing added, no audit row", async () => {
  const rows = (await auditRows(h)).length;
  for (const [form, words] of [
    [{ type: "webhook", name: "bad name!", o_url: "https://ops.example.com/x" }, "名称为 1-40 个字母"],
    [{ type: "telegram", name: "tg", o_token: "nope", o_chat_id: "42" }, "token 应形如"],
    [{ type: "webhook", name: "w" }, "webhook 通道需要填写 url"],
  ] as [Record<string, string>, string][]) {
    const r = await h.post("/admin/alerts", form);
    expect(r.status).toBe(422);
    expect(await r.text()).toContain(words);
  }
  expect(await h.gw.store.alerts.listChannels()).toEqual([]);
  expect((await auditRows(h)).length).toBe(rows);
});

test("add a webhook: its generated secret shown once; test reaches it, shown and audited; remove", async () => {
  const r = await h.post("/admin/alerts", { type: "webhook", name: "ops", o_url: `http://127.0.0.1:${hook.port}/in` });
  expect(r.status).toBe(200);
  const added = await r.text();
  const secret = /（只显示这一次）：([0-9a-f]{32})/.exec(added)?.[1];
  expect(secret).toBeDefined();
  const list = await (await h.get("/admin/alerts")).text();
  expect(list).toContain('data-channel="ops"');
  expect(list).not.toContain(secret!);
  expect((await auditRows(h)).at(-1)!.action).toBe("alert.add");

  const tested = await h.post("/admin/alerts/ops/test", {});
  expect(tested.status).toBe(200);
  expect(await tested.text()).toContain("测试消息已发送到 ops（HTTP 200");
  expect(got.length).toBe(1);
  const audit = (await auditRows(h)).at(-1)!;
  expect(audit.action).toBe("alert.test");
  expect(audit.target).toBe("alert_channel:ops");
  expect(await (await h.get("/admin/alerts")).text()).toContain("已发送");

  expect((await h.post("/admin/alerts/nope/test", {})).status).toBe(404);
  const removed = await h.post("/admin/alerts/ops/remove", {});
  expect(removed.status).toBe(303);
  expect(await h.gw.store.alerts.listChannels()).toEqual([]);
  expect((await auditRows(h)).at(-1)!.action).toBe("alert.remove");
});

test("without CSRF nothing is added", async () => {
  const r = await h.post("/admin/alerts", { type: "webhook", name: "x", o_url: "https://ops.example.com/x" }, { csrf: null });
  expect(r.status).toBe(403);
  expect(await h.gw.store.alerts.listChannels()).toEqual([]);
});
