// Issue 30 item 4 in the console: which accounts each report source watches, shown and changed.
// A keyed client's page binds it to accounts and unbinds it (core bindClient, audited, the report
// groups recomputed) and removes it (removeClient, audited; its secret stops working); refusals are
// inline (422), never a 500. The clients list and the dashboard label the new kinds and say what
// each client watches; the accounts page names each account's watchers or says 无人监控; the
// reserved-amounts page says amounts are unique across the report group and which account holds each.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addClient, refreshGroups } from "../../src/core/clients/keyed.ts";
import type { KeyedClient, KeyedKind } from "../../src/core/store.ts";
import { postJson, seed, signed } from "../helpers.ts";
import { defaultFormBody, testButtonContent } from "../report/smsforwarder-app.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
beforeEach(async () => {
  h = await adminHarness();
  await seed(h); // merchant 1001, its Alipay account 1 "Alipay A"
  await h.gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_b", name: "Alipay B", qrcode: "https://qr.alipay.com/fkx0002", now: h.clock.now() }); // 2
  await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx_shared", name: "WeChat shared", qrcode: "wxp://s", now: h.clock.now() }); // 3
  await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "another secret 1234", now: h.clock.now() });
  await h.gw.store.addChannel({ pid: 1002, payType: "alipay", code: "a1002", name: "Alipay of 1002", qrcode: "https://qr.alipay.com/x", now: h.clock.now() }); // 4
  await refreshGroups(h.gw);
});
afterEach(() => h.close());

const html = async (path: string) => {
  const res = await h.get(path);
  return { status: res.status, body: await res.text() };
};
async function client(kind: KeyedKind, pid: number, name: string, accountIds: number[] = []): Promise<KeyedClient> {
  const r = await addClient(h.gw, CLI_ACTOR, { kind, pid, name, accountIds });
  if (!r.ok) throw new Error(r.reason);
  return r.client;
}
/** The clients-table row id (the client page's id) of a keyed client. */
const pageOf = async (c: KeyedClient) => (await h.gw.store.listClients()).find((r) => r.kind === c.kind && r.name === c.name)!.id;
const mine = async () => (await auditRows(h)).filter((r) => r.actor === "alice");
const group = async (id: number) => (await h.gw.store.getChannel(id))!.reportGroup;
const rowOf = (body: string, attr: string, id: number) => body.match(new RegExp(`<tr ${attr}="${id}"[^>]*>([\\s\\S]*?)</tr>`))![1]!;

describe("binding on a client's page", () => {
  test("bind, then unbind: each audited, the page says what it watches, the report groups follow", async () => {
    const c = await client("smsforwarder", 1001, "till-1");
    const page = await pageOf(c);
    expect(await group(2)).toBe(await group(1)); // one unbound forwarder: its report could mean either Alipay account
    let { status, body } = await html(`/admin/clients/${page}`);
    expect(status).toBe(200);
    expect(body).toContain('id="bind-form"');
    expect(body).toContain("未绑定：监控范围内所有没有绑定到其他监控端的账户（现在 3 个）。"); // 1, 2 (own) and 3 (shared)
    expect([...body.matchAll(/<input type="checkbox" name="account" value="(\d+)"/g)].map((m) => m[1])).toEqual(["1", "2", "3"]);

    let res = await h.post(`/admin/clients/${page}/bind`, [["account", "1"]]);
    expect([res.status, res.headers.get("location")]).toEqual([303, `/admin/clients/${page}?done=bound#watch`]);
    expect((await h.gw.store.getKeyedClient(c.id))!.accountIds).toEqual([1]);
    expect(await group(2)).not.toBe(await group(1)); // its reports now mean account 1 only
    ({ body } = await html(`/admin/clients/${page}?done=bound`));
    expect(body).toContain('id="watch-saved"');
    expect(body).toContain("已绑定 1 个账户。");
    expect(body).toContain('<input type="checkbox" name="account" value="1" checked');
    expect(body).toContain(">#1 Alipay A · 支付宝</a>"); // the facts at the top

    res = await h.post(`/admin/clients/${page}/bind`, { unbind: "1", account: "2" });
    expect(res.status).toBe(303);
    expect((await h.gw.store.getKeyedClient(c.id))!.accountIds).toEqual([]);
    expect(await group(2)).toBe(await group(1));
    const rows = (await mine()).map((r) => [r.action, r.target, r.before, r.after]);
    expect(rows).toEqual([
      ["client.bind", `keyed_client:${c.id}`, { accounts: [] }, { accounts: [1] }],
      ["client.bind", `keyed_client:${c.id}`, { accounts: [1] }, { accounts: [] }],
    ]);
  });

  test("refusals: inline under the checkboxes (422), nothing changed, nothing logged; not a keyed client: 404", async () => {
    const v = await client("vmq", 1001, "vmq-1", [1]);
    const page = await pageOf(v);
    const cases: [[string, string][], string][] = [
      [[["account", "4"]], "账户 4 属于商户 1002：商户的监控端只能监控自己的账户和共享账户。"],
      [[["account", "99"]], "没有 ID 为 99 的收款账户。"],
      [[["account", "1"], ["account", "zz"]], "没有 ID 为 ? 的收款账户。"],
    ];
    for (const [form, text] of cases) {
      const res = await h.post(`/admin/clients/${page}/bind`, form);
      const body = await res.text();
      expect({ form, status: res.status }).toEqual({ form, status: 422 });
      expect(body).toContain(`<p class="field-error" id="f-bind-error">${text}</p>`);
    }
    // V免签 reports WeChat and Alipay only: a QQ account is refused for it.
    await h.gw.store.addChannel({ pid: 0, payType: "qqpay", code: "qq", name: "QQ", qrcode: "https://qr.example/qq", now: h.clock.now() }); // 5
    const res = await h.post(`/admin/clients/${page}/bind`, [["account", "5"]]);
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("账户 5 是 QQ钱包：V免签 App 只上报微信和支付宝。");
    expect((await h.gw.store.getKeyedClient(v.id))!.accountIds).toEqual([1]);
    expect(await mine()).toEqual([]);
    // An AppSecret phone has no secret of its own to bind: no form, and the actions are 404.
    expect((await h.app.handle(new Request(`http://localhost/api/report/1001/heart?${new URLSearchParams(signed({ client_name: "pixel", timestamp: h.clock.now() }))}`))).status).toBe(200);
    const phone = (await h.gw.store.listClients()).find((r) => r.name === "pixel")!.id;
    expect((await html(`/admin/clients/${phone}`)).body).not.toContain('id="bind-form"');
    expect((await h.post(`/admin/clients/${phone}/bind`, { account: "1" })).status).toBe(404);
    expect((await h.post(`/admin/clients/${phone}/remove`)).status).toBe(404);
    expect((await h.post("/admin/clients/999/bind", { account: "1" })).status).toBe(404);
  });
});

describe("removing a client", () => {
  test("audited; the list says so; its secret stops working at once", async () => {
    const c = await client("smsforwarder", 1001, "till-1", [1]);
    const page = await pageOf(c);
    expect((await html(`/admin/clients/${page}`)).body).toContain('data-confirm="确定删除 till-1？它的密钥立即失效，此操作不可撤销。"');
    const res = await h.post(`/admin/clients/${page}/remove`);
    expect([res.status, res.headers.get("location")]).toEqual([303, "/admin/clients?done=removed"]);
    expect(await h.gw.store.listKeyedClients()).toEqual([]);
    expect((await mine()).map((r) => [r.action, r.target, (r.before as { name?: string } | null)?.name])).toEqual([["client.remove", `keyed_client:${c.id}`, "till-1"]]);
    expect((await html("/admin/clients?done=removed")).body).toContain("监控端已删除，它的密钥已失效。");
    const t = testButtonContent();
    const sent = await h.app.handle(new Request(`http://localhost/api/report/smsforwarder/${c.id}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: defaultFormBody(t.from, t.content, h.clock.nowMs(), c.key) }));
    expect(sent.status).toBeGreaterThanOrEqual(400);
    expect(sent.status).toBeLessThan(500);
    expect((await h.post(`/admin/clients/${page}/remove`)).status).toBe(404);
  });
});

describe("the clients list and the dashboard", () => {
  test("the new kinds by name; what each client watches, by id and name, or unbound; the operator's client", async () => {
    await client("smsforwarder", 1001, "till-1", [1]);
    await client("report", 0, "watcher");
    const { body } = await html("/admin/clients");
    const till = body.match(/<tr data-client="\d+">((?:(?!<\/tr>)[\s\S])*till-1[\s\S]*?)<\/tr>/)![1]!;
    expect(till).toContain(">SmsForwarder</td>");
    expect(till).toContain(">#1 Alipay A · 支付宝</a>");
    expect(till).not.toContain("未绑定");
    const watcher = body.match(/<tr data-client="\d+">((?:(?!<\/tr>)[\s\S])*watcher[\s\S]*?)<\/tr>/)![1]!;
    expect(watcher).toContain(">上报接口客户端</td>");
    expect(watcher).toContain(">运营者</td>");
    expect(watcher).toContain(">未绑定</span>");
    expect(watcher).toContain(">#3 WeChat shared · 微信</a>"); // 1 is bound to till-1; 2, 3 and 4 are nobody's
    expect(watcher).toContain(">#4 Alipay of 1002 · 支付宝</a>");
    const dash = (await html("/admin")).body;
    expect(dash).toContain(">SmsForwarder</td>");
    expect(dash).toContain(">上报接口客户端</td>");
  });
});

describe("the accounts page: who watches each account", () => {
  test("the merchant's AppSecret, a phone by name (linked), or 无人监控; the setting turns the AppSecret off", async () => {
    let { body } = await html("/admin/accounts");
    expect(rowOf(body, "data-account", 1)).toContain("商户密钥上报");
    expect(rowOf(body, "data-account", 3)).toContain(">无人监控</span>"); // shared: no AppSecret may report on it
    const c = await client("smsforwarder", 1001, "till-1", [3]);
    ({ body } = await html("/admin/accounts"));
    expect(rowOf(body, "data-account", 3)).toContain(`<a href="/admin/clients/${await pageOf(c)}">till-1</a>`);
    expect(rowOf(body, "data-account", 3)).not.toContain("无人监控");
    await h.gw.store.setSetting("report_merchant_secret", "0");
    h.gw.forgetSettings();
    ({ body } = await html("/admin/accounts"));
    expect(rowOf(body, "data-account", 1)).toContain("无人监控");
    expect(body).not.toContain("商户密钥上报");
  });
});

describe("reserved amounts across the report group", () => {
  async function order(money: string) {
    const { body } = await postJson(h, "/xpay/order/create", signed({ pid: 1001, pay_type: "alipay", name: "n", money, out_trade_no: `O${Math.random().toString(36).slice(2)}` }));
    return body.data as { trade_no: string; trade_amount: string };
  }

  test("the group's accounts named; a slot held on another account of the group says which; bound apart, each is alone", async () => {
    const a = await order("10.00");
    const b = await order("10.00");
    expect([a.trade_amount, b.trade_amount].sort()).toEqual(["10.00", "9.99"]); // one AppSecret's report could mean either account
    let { body } = await html("/admin/accounts/1/slots");
    expect(body).toContain('id="slots-group"');
    expect(body).toContain("实付金额在报告组内唯一");
    expect(body).toContain('<a href="/admin/accounts/2/slots">#2 Alipay B · 支付宝</a>');
    const held = [...body.matchAll(/<tr data-slot="(\d+)">[\s\S]*?data-held-on="(\d+)"/g)].map((m) => [m[1], m[2]]);
    expect(held.length).toBe(2);
    expect(new Set(held.map((x) => x[1]))).toEqual(new Set(["1", "2"]));
    expect(body).toContain(">本账户</span>");
    expect(body).toContain('<a href="/admin/accounts/2/slots">#2 Alipay B</a>');
    // A phone bound to each account: a report then names its account, and the groups part.
    await client("smsforwarder", 1001, "p1", [1]);
    await client("smsforwarder", 1001, "p2", [2]);
    ({ body } = await html("/admin/accounts/1/slots"));
    expect(body).toContain("这个账户单独成组");
    expect(body).not.toContain("data-held-on");
  });
});
