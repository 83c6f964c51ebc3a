// Issue 30 items 3 and 4 in the console's setup page (/admin/clients/setup): each SmsForwarder
// client's box in the app's own screen and field names (发送通道 → + → Webhook, 请求方式, Webhook
// Server, Secret, 消息模板, 测试) with its own URL, the secret only after the audited reveal; the
// operator (pid 0) as an owner; the "add a phone" form, which adds through core addClient (audited)
// and answers with the new client's box, secret shown once, or refuses inline (422, nothing
// written). A secret the page gives is the one the phone needs: the app's request signed with it pays.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addClient } from "../../src/core/clients/keyed.ts";
import { SMS_JSON_TEMPLATE } from "../../src/core/clients/setup.ts";
import type { KeyedClient, KeyedKind } from "../../src/core/store.ts";
import { seed } from "../helpers.ts";
import { defaultFormBody, testButtonContent } from "../report/smsforwarder-app.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
beforeEach(async () => {
  h = await adminHarness();
  await seed(h); // merchant 1001 (SECRET), its Alipay account 1 "Alipay A"
  await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "another secret 1234", now: h.clock.now() });
  await h.gw.store.addChannel({ pid: 0, payType: "qqpay", code: "qq", name: "QQ shared", qrcode: "https://qr.example/qq", now: h.clock.now() }); // 2
  await h.gw.store.addChannel({ pid: 1002, payType: "wxpay", code: "wx", name: "WeChat of 1002", qrcode: "wxp://x", now: h.clock.now() }); // 3
});
afterEach(() => h.close());

const htmx = { headers: { "hx-request": "true" } };
const html = async (path: string, o = {}) => {
  const res = await h.get(path, o);
  return { status: res.status, body: await res.text() };
};
async function client(kind: KeyedKind, pid: number, name: string, accountIds: number[] = []): Promise<KeyedClient> {
  const r = await addClient(h.gw, CLI_ACTOR, { kind, pid, name, accountIds });
  if (!r.ok) throw new Error(r.reason);
  return r.client;
}
const actions = async () => (await auditRows(h)).filter((r) => r.actor === "alice").map((r) => [r.action, r.target]);
const box = (body: string, id: string) => body.slice(body.indexOf(`<div id="${id}"`), body.indexOf("</dl>", body.indexOf(`<div id="${id}"`)));

describe("the SmsForwarder box", () => {
  test("the app's screens and fields, its own URL, the JSON template; the secret masked; the plain-HTTP and loopback notes", async () => {
    const c = await client("smsforwarder", 1001, "till-1", [1]);
    const { status, body } = await html("/admin/clients/setup?pid=1001");
    expect(status).toBe(200);
    const sms = box(body, `sms-${c.id}`);
    for (const label of ["在 SmsForwarder 中：", ">发送通道<", ">+<", ">Webhook<", ">请求方式<", ">POST<", ">Webhook Server<", ">Secret<", ">消息模板<", "留空（App 的默认设置）", ">测试<"]) {
      expect({ label, has: sms.includes(label) }).toEqual({ label, has: true });
    }
    expect(sms).toContain(`<code id="sms-${c.id}-url">http://127.0.0.1:8080/api/report/smsforwarder/${c.id}</code>`);
    expect(sms).toContain(`data-copy="#sms-${c.id}-url"`);
    expect(sms).toContain(`<code id="sms-${c.id}-template">${SMS_JSON_TEMPLATE.replaceAll('"', "&quot;")}</code>`);
    expect(sms).toContain("#1 Alipay A · 支付宝");
    expect(sms).toContain("xpay client show till-1");
    expect(body).not.toContain(c.key);
    expect(body).toContain('id="note-plain-http"'); // the harness serves http://127.0.0.1:8080
    expect(body).toContain("http://127.0.0.1:8080 是明文 HTTP");
    expect(body).toContain('id="note-loopback"');
    // The old advice (a JSON webhook signed with the AppSecret, i.e. write a relay) is gone.
    expect(body).not.toContain("SmsForwarder 等通知转发 App");
    expect(body).not.toContain("内容类型 application/json");
    expect(await actions()).toEqual([]);
  });

  test("in English the app's English labels", async () => {
    const c = await client("smsforwarder", 1001, "till-1");
    const { body } = await html("/admin/clients/setup?pid=1001", { cookie: `${h.login.cookie}; xpay_lang=en` });
    const sms = box(body, `sms-${c.id}`);
    for (const label of ["In SmsForwarder:", ">Senders<", ">Method<", ">Webhook Server<", ">Secret<", ">Params<", ">Test<", "unbound (every account"]) {
      expect({ label, has: sms.includes(label) }).toEqual({ label, has: true });
    }
  });

  test("show the secret: a POST, audited as client.reveal_key without the value; htmx swaps the box; the secret signs the app's test", async () => {
    const c = await client("smsforwarder", 1001, "till-1");
    let res = await h.post("/admin/clients/setup/reveal", { pid: "1001", client: String(c.id) }, htmx);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    let body = await res.text();
    expect(body.startsWith(`<div id="sms-${c.id}"`)).toBe(true);
    expect(body).toContain(`<code id="sms-${c.id}-secret">${c.key}</code>`);
    expect(body).toContain(`data-copy="#sms-${c.id}-secret"`);
    res = await h.post("/admin/clients/setup/reveal", { pid: "1001", client: String(c.id) }); // without script: the page
    body = await res.text();
    expect(body).toContain("<!doctype html>");
    expect(body).toContain(`<code id="sms-${c.id}-secret">${c.key}</code>`);
    const rows = (await auditRows(h)).filter((r) => r.action === "client.reveal_key");
    expect(rows.map((r) => [r.actor, r.target])).toEqual([["alice", `keyed_client:${c.id}`], ["alice", `keyed_client:${c.id}`]]);
    expect(JSON.stringify(await auditRows(h))).not.toContain(c.key);
    // What the page showed is what the phone needs: the app's test button, signed with it, is answered 200.
    const t = testButtonContent();
    const sent = await h.app.handle(new Request(`http://localhost/api/report/smsforwarder/${c.id}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: defaultFormBody(t.from, t.content, h.clock.nowMs(), c.key) }));
    expect(sent.status).toBe(200);
    expect((await html("/admin/clients/setup?pid=1001")).body).toContain("19999999999"); // in the live list
  });

  test("a reveal for another owner's client, or none, shows nothing and logs nothing", async () => {
    const c = await client("smsforwarder", 1001, "till-1");
    for (const [form, status] of [[{ pid: "1002", client: String(c.id) }, 404], [{ pid: "1001", client: "99" }, 404], [{ pid: "0", client: String(c.id) }, 404], [{ pid: "0" }, 404]] as const) {
      const res = await h.post("/admin/clients/setup/reveal", form, htmx);
      expect({ form, status: res.status }).toEqual({ form, status });
      expect(await res.text()).not.toContain(c.key);
    }
    expect(await actions()).toEqual([]);
  });
});

describe("owners", () => {
  test("the operator (0) is offered; its page offers every account and its clients, with no AppSecret part", async () => {
    const op = await client("report", 0, "operator-watcher");
    const { status, body } = await html("/admin/clients/setup?pid=0");
    expect(status).toBe(200);
    expect(body).toContain('<option value="0" selected>0 运营者（共享账户）</option>');
    const boxes = [...body.matchAll(/<input type="checkbox" name="account" value="(\d+)"/g)].map((m) => m[1]);
    expect(boxes).toEqual(["1", "2", "3"]);
    expect(body).toContain(`<code id="report-${op.id}-message">http://127.0.0.1:8080/api/report/0</code>`);
    expect(body).toContain(`<code id="report-${op.id}-amount">http://127.0.0.1:8080/api/report/0/pc</code>`);
    expect(body).not.toContain('id="merchant-secret"');
    expect(body).not.toContain(op.key);
    // A merchant's page offers its own and the shared accounts, not another merchant's.
    const mine = (await html("/admin/clients/setup?pid=1001")).body;
    expect([...mine.matchAll(/<input type="checkbox" name="account" value="(\d+)"/g)].map((m) => m[1])).toEqual(["1", "2"]);
    expect(mine).toContain('id="merchant-secret"');
    expect(mine).not.toContain(`id="report-${op.id}"`);
  });

  test("with report_merchant_secret off the AppSecret part says so and shows no AppSecret button", async () => {
    await h.gw.store.setSetting("report_merchant_secret", "0");
    h.gw.forgetSettings();
    const { body } = await html("/admin/clients/setup?pid=1001");
    expect(body).toContain('id="merchant-secret-off"');
    expect(body).not.toContain('id="secret-box"');
    expect(body).toContain('id="body-template"'); // report clients still sign the report API this way
  });
});

describe("the add form", () => {
  test("adds an SmsForwarder phone (audited client.add); the answer shows its box with the secret once, no reveal logged", async () => {
    const res = await h.post("/admin/clients/setup/add", [["pid", "1001"], ["kind", "smsforwarder"], ["name", " 收款机 1 "], ["account", "1"], ["account", "2"]]);
    expect(res.status).toBe(200);
    const body = await res.text();
    const [c] = await h.gw.store.listKeyedClients();
    expect(c).toMatchObject({ kind: "smsforwarder", pid: 1001, name: "收款机 1", accountIds: [1, 2] });
    const added = body.slice(body.indexOf('id="added"'), body.indexOf('id="add"'));
    expect(added).toContain("已添加 收款机 1");
    expect(added).toContain(`<code id="sms-${c!.id}-secret">${c!.key}</code>`);
    expect(added).toContain(`/api/report/smsforwarder/${c!.id}</code>`);
    expect(body.split(c!.key).length).toBe(2); // once: the box is not repeated in the SmsForwarder card
    expect(body).toContain("收款机 1 的设置见本页上方。");
    expect(body).not.toContain('id="sms-none"');
    expect(await actions()).toEqual([["client.add", `keyed_client:${c!.id}`]]);
    expect(JSON.stringify(await auditRows(h))).not.toContain(c!.key);
    // The next visit shows it masked.
    const again = (await html("/admin/clients/setup?pid=1001")).body;
    expect(again).not.toContain(c!.key);
    expect(again).toContain(`id="sms-${c!.id}"`);
  });

  test("a report client of the operator: its report URLs and secret; a V免签 app: its QR code", async () => {
    let body = await (await h.post("/admin/clients/setup/add", { pid: "0", kind: "report", name: "watcher" })).text();
    const [r] = await h.gw.store.listKeyedClients();
    expect(body).toContain(`<code id="report-${r!.id}-message">http://127.0.0.1:8080/api/report/0</code>`);
    expect(body).toContain(`<code id="report-${r!.id}-heart">http://127.0.0.1:8080/api/report/0/heart</code>`);
    expect(body).toContain(`<code id="report-${r!.id}-secret">${r!.key}</code>`);
    body = await (await h.post("/admin/clients/setup/add", { pid: "1001", kind: "vmq", name: "vmq-phone", account: "1" })).text();
    const v = (await h.gw.store.listKeyedClients()).find((c) => c.kind === "vmq")!;
    expect(body).toContain(`<code id="vmq-${v.id}-config">127.0.0.1:8080/${v.key}</code>`);
    expect(body).toMatch(/<img src="data:image\/png;base64,/);
  });

  test("refusals are inline (422), keep what was typed, write nothing and log nothing", async () => {
    await client("smsforwarder", 1001, "taken");
    const cases: [Record<string, string>, string, string][] = [
      [{ kind: "smsforwarder", name: "" }, "f-client-name-error", "请填写名称。"],
      [{ kind: "smsforwarder", name: "taken" }, "f-client-name-error", "已有名为 taken 的监控端，请换一个名称。"],
      [{ kind: "smsforwarder", name: "a\u0001b" }, "f-client-name-error", "名称最多 64 个字符，且不能含控制字符。"],
      [{ kind: "smsforwarder", name: "x".repeat(65) }, "f-client-name-error", "名称最多 64 个字符，且不能含控制字符。"],
      [{ kind: "phone", name: "p" }, "f-kind-error", "请选择类型。"],
      [{ kind: "vmq", name: "v", account: "2" }, "f-accounts-error", "账户 2 是 QQ钱包：V免签 App 只上报微信和支付宝。"],
      [{ kind: "report", name: "r", account: "3" }, "f-accounts-error", "账户 3 属于商户 1002：商户的监控端只能监控自己的账户和共享账户。"],
      [{ kind: "report", name: "r", account: "99" }, "f-accounts-error", "没有 ID 为 99 的收款账户。"],
      [{ kind: "report", name: "r", account: "x" }, "f-accounts-error", "没有 ID 为 ? 的收款账户。"],
    ];
    for (const [form, field, text] of cases) {
      const res = await h.post("/admin/clients/setup/add", { pid: "1001", ...form });
      const body = await res.text();
      expect({ form, status: res.status }).toEqual({ form, status: 422 });
      expect({ form, error: body.includes(`<p class="field-error" id="${field}">${text}</p>`) }).toEqual({ form, error: true });
      expect(body).toContain('id="add-errors"');
      expect(body).toContain('<details class="card cl-add" id="add" open>');
    }
    const kept = await (await h.post("/admin/clients/setup/add", { pid: "1001", kind: "vmq", name: "<b>v</b>", account: "2" })).text();
    expect(kept).toContain('value="&lt;b&gt;v&lt;/b&gt;"');
    expect(kept).toContain('<input type="radio" name="kind" value="vmq" checked');
    expect(kept).toContain('<input type="checkbox" name="account" value="2" checked');
    expect((await h.gw.store.listKeyedClients()).map((c) => c.name)).toEqual(["taken"]);
    expect(await actions()).toEqual([]);
    // An owner that does not exist: the picker's error, nothing added.
    const res = await h.post("/admin/clients/setup/add", { pid: "4242", kind: "report", name: "r" });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('id="f-pid-error"');
    expect((await h.gw.store.listKeyedClients()).length).toBe(1);
  });

  test("a name holding markup is text everywhere it is shown", async () => {
    const xss = "<script>alert(1)</script>";
    const body = await (await h.post("/admin/clients/setup/add", { pid: "1001", kind: "smsforwarder", name: xss })).text();
    expect(body).not.toContain(xss);
    expect(body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    for (const path of ["/admin/clients", "/admin/clients/setup?pid=1001", "/admin/accounts"]) expect((await html(path)).body).not.toContain(xss);
    expect((await html("/admin/clients/setup?pid=1001")).body).toContain("xpay client show &#x27;&lt;script&gt;alert(1)&lt;/script&gt;&#x27;");
  });

  test("without a session or CSRF token the form adds nothing", async () => {
    expect((await h.post("/admin/clients/setup/add", { pid: "1001", kind: "report", name: "r" }, { csrf: null })).status).toBe(403);
    expect((await h.post("/admin/clients/setup/add", { pid: "1001", kind: "report", name: "r" }, { cookie: null })).status).toBeGreaterThanOrEqual(300);
    expect(await h.gw.store.listKeyedClients()).toEqual([]);
  });
});
