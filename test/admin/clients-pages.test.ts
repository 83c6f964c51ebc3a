// Issue 17 (monitoring clients) and issue 22 (device history, reserved amounts) in the console:
// the clients list, a client's page with its live report list (the htmx poll, its end after ten
// minutes, a revoked session refused on the next poll), the setup helper whose secrets are shown
// only by an audited POST, and an account's reserved amounts with the probe. Names, raw reports and
// messages holding <script> render as text.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { revokeSession } from "../../src/core/admin/sessions.ts";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { postJson, seed, SECRET, signed } from "../helpers.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
beforeEach(async () => {
  h = await adminHarness();
  await seed(h); // merchant 1001 (SECRET), shared alipay account 1 "Alipay A"
});
afterEach(() => h.close());

const XSS = "<script>alert(1)</script>";
const html = async (path: string) => {
  const res = await h.get(path);
  return { status: res.status, body: await res.text() };
};
const htmx = { headers: { "hx-request": "true" } };
const reveals = async () => (await auditRows(h)).filter((r) => r.action.includes("reveal"));
async function beat(name: string) {
  const q = new URLSearchParams(signed({ client_name: name, timestamp: h.clock.now() }));
  expect((await h.app.handle(new Request(`http://localhost/api/report/1001/heart?${q}`))).status).toBe(200);
}
const idOf = async (name: string) => (await h.gw.store.listClients()).find((c) => c.name === name)!.id;
async function order(money: string) {
  const { body } = await postJson(h, "/xpay/order/create", signed({ pid: 1001, pay_type: "alipay", name: "n", money, out_trade_no: `O${Math.random().toString(36).slice(2)}` }));
  return body.data as { trade_no: string; trade_amount: string };
}
function notify(msg: string, o: { title?: string; device?: string; pkg?: string } = {}) {
  const content = JSON.stringify({ package_name: o.pkg ?? "com.eg.android.AlipayGphone", title: o.title ?? "收钱码收款", msg, receive_time: "2026-11-23 20:15:00", device_name: o.device ?? "pixel" });
  return postJson(h, "/api/report/1001", signed({ from: "pixel", content, timestamp: h.clock.now() }));
}

describe("the clients list", () => {
  test("each client with kind, merchant, accounts linked to their reserved amounts, age of the last beat, online by heartbeat_timeout", async () => {
    await beat("old-phone");
    h.clock.advance(200);
    await beat("pixel");
    await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "vmq-1", key: "0123456789abcdef0123456789abcdef", accountIds: [], now: h.clock.now() });
    h.clock.advance(30);
    const { status, body } = await html("/admin/clients");
    expect(status).toBe(200);
    const rows = [...body.matchAll(/<tr data-client="(\d+)">([\s\S]*?)<\/tr>/g)].map((m) => m[2]!);
    expect(rows.length).toBe(3);
    expect(rows[0]).toContain(">pixel</a>");
    expect(rows[0]).toContain("在线");
    expect(rows[0]).toContain("30 秒前");
    expect(rows[0]).toContain('href="/admin/accounts/1/slots"');
    expect(rows[0]).toContain("1001 Shop");
    expect(rows[1]).toContain("离线");
    expect(rows[1]).toContain("3 分钟前");
    expect(rows[2]).toContain("从未上报");
    expect(body).toContain("在线 1 个，离线 2 个");
    expect(body).toContain('data-account="1"');
  });

  test("empty: says how to start; a name holding <script> is text", async () => {
    expect((await html("/admin/clients")).body).toContain('id="clients-none"');
    await h.gw.store.recordClientSeen({ kind: "phone", pid: 1001, name: XSS, channelId: null, extData: XSS, lastSeenAt: h.clock.now() }, []);
    await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "w", name: XSS, qrcode: "wxp://x", now: h.clock.now() });
    for (const path of ["/admin/clients", `/admin/clients/${await idOf(XSS)}`, "/admin/accounts/2/slots"]) {
      const { body } = await html(path);
      expect({ path, raw: body.includes(XSS) }).toEqual({ path, raw: false });
      expect(body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    }
  });
});

describe("a client's page", () => {
  test("its payment reports, raw and escaped, how each was read, the order link; heartbeats are not listed", async () => {
    const o = await order("12.00");
    await notify("你已成功收款12.00元");
    await notify(`收到 ${XSS} 一条消息`, { title: "张三", pkg: "com.tencent.mm" });
    await beat("pixel");
    const { status, body } = await html(`/admin/clients/${await idOf("pixel")}`);
    expect(status).toBe(200);
    const rows = [...body.matchAll(/<tr data-report="(\d+)"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => m[2]!);
    const live = body.slice(body.indexOf('id="live-table"'), body.indexOf('id="history"'));
    expect(live.match(/<tr data-report=/g)?.length).toBe(2);
    expect(live).not.toContain("心跳");
    expect(rows[1]).toContain("已匹配");
    expect(rows[1]).toContain(`href="/admin/orders/${o.trade_no}"`);
    expect(rows[1]).toContain("12.00");
    expect(rows[1]).toContain("你已成功收款12.00元"); // the forwarded content, parsed for reading
    expect(rows[0]).toContain("未匹配");
    expect(body).not.toContain(XSS);
    expect(body).toContain("&lt;script&gt;");
    // The chat is a message no rule read; a WeChat chat quoting nothing like money is not "like a payment".
    const unread = body.slice(body.indexOf('id="unread"'));
    expect(unread).toContain("com.tencent.mm");
    expect(unread).not.toContain("cl-looks");
  });

  test("the device history with ManualClock: silences over the timeout, online today, the ranges", async () => {
    for (let i = 0; i < 10; i++) {
      await beat("pixel");
      h.clock.advance(30);
    }
    h.clock.advance(300);
    await beat("pixel");
    h.clock.advance(10);
    const id = await idOf("pixel");
    const { body } = await html(`/admin/clients/${id}`);
    expect(body.match(/<tr class="cl-gap"/g)?.length).toBe(1);
    expect(body).toContain("5 分 30 秒"); // 300 s + the 30 s after the tenth beat
    expect(body.match(/class="tl-off"/g)?.length).toBe(1);
    expect(body.match(/class="tl-on"/g)?.length).toBe(2);
    expect(body).toMatch(/id="online-today">\d/);
    expect((await html(`/admin/clients/${id}?days=7`)).body).toContain(`href="/admin/clients/${id}?days=7" aria-current="true"`);
    expect((await html(`/admin/clients/${id}?days=9999`)).body).toContain(`href="/admin/clients/${id}?days=1" aria-current="true"`);
  });

  test("report latency from the payment time the report carries", async () => {
    const at = h.clock.now() - 4;
    await order("8.00");
    // A phone that sends heartbeats is a client; its amount reports name it by coll_user (issue 31:
    // an amount report alone adds no client, so the channel_code is no phone's name any more).
    await postJson(h, "/api/report/1001/heart", signed({ client_name: "till-1", timestamp: h.clock.now() }));
    const q = signed({ amount: 800, pay_type: "alipay", channel_code: "alipay_qr", coll_user: "till-1", pay_time: String(at), timestamp: h.clock.now() });
    await postJson(h, "/api/report/1001/pc", q);
    const { body } = await html(`/admin/clients/${await idOf("till-1")}`);
    expect(body).toContain('id="latency-median">4 秒');
  });

  test("unknown or malformed id: 404", async () => {
    expect((await h.get("/admin/clients/999")).status).toBe(404);
    expect((await h.get("/admin/clients/abc")).status).toBe(404);
    expect((await h.get("/admin/clients/999/reports", htmx)).status).toBe(404);
  });

  test("the live list polls itself for ten minutes, marks what arrived since the page opened, then offers to go on", async () => {
    await beat("pixel");
    const id = await idOf("pixel");
    const from = h.clock.now();
    await notify("你已成功收款1.00元");
    let res = await h.get(`/admin/clients/${id}/reports?since=0&from=${from}`, htmx);
    let body = await res.text();
    expect(body.startsWith('<div id="live" hx-get=')).toBe(true);
    expect(body).toContain('hx-trigger="every 5s"');
    expect(body).toContain('class="cl-new"');
    h.clock.advance(601);
    body = await (await h.get(`/admin/clients/${id}/reports?since=999&from=${from}`, htmx)).text();
    expect(body).not.toContain("hx-trigger");
    expect(body).not.toContain('class="cl-new"');
    expect(body).toContain("继续自动刷新");
    // Without htmx the poll URL is the client page.
    res = await h.get(`/admin/clients/${id}/reports`);
    expect([res.status, res.headers.get("location")]).toEqual([303, `/admin/clients/${id}`]);
  });

  test("a session revoked meanwhile is refused on its next poll (401, htmx sent to the login page)", async () => {
    await beat("pixel");
    const id = await idOf("pixel");
    expect((await h.get(`/admin/clients/${id}/reports`, htmx)).status).toBe(200);
    await revokeSession(h.gw, CLI_ACTOR, h.login.sessionId);
    const res = await h.get(`/admin/clients/${id}/reports`, htmx);
    expect(res.status).toBe(401);
    expect(res.headers.get("hx-redirect")).toBe("/admin/login");
  });
});

describe("the setup helper", () => {
  const KEY = "4b5a3c2d1e0f9a8b7c6d5e4f3a2b1c0d";
  beforeEach(async () => {
    await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "vmq-1", key: KEY, accountIds: [], now: h.clock.now() });
  });

  test("the report URLs, pid, webhook body and rule; neither secret on the page", async () => {
    const { status, body } = await html("/admin/clients/setup?pid=1001");
    expect(status).toBe(200);
    expect(body).toContain("http://127.0.0.1:8080/api/report/1001</code>");
    expect(body).toContain("http://127.0.0.1:8080/api/report/1001/heart</code>");
    expect(body).toContain("http://127.0.0.1:8080/api/report/third-account</code>");
    expect(body).toContain('id="note-loopback"'); // the harness's base URL: a phone cannot reach it
    expect(body).toContain("xpay merchant show 1001 --show-secret");
    expect(body).toContain("xpay client show-vmq vmq-1");
    expect(body).not.toContain(SECRET);
    expect(body).not.toContain(KEY);
    expect(body).toContain("&quot;content&quot;: &quot;{\\&quot;from\\&quot;:\\&quot;[from]\\&quot;");
    expect(await reveals()).toEqual([]);
  });

  test("show the AppSecret: a POST, audited without the value; htmx swaps the box, a plain form reloads the page", async () => {
    let res = await h.post("/admin/clients/setup/reveal", { pid: "1001" }, htmx);
    expect(res.status).toBe(200);
    let body = await res.text();
    expect(body.startsWith('<div id="secret-box">')).toBe(true);
    expect(body).toContain(`<code id="secret-value">${SECRET}</code>`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    res = await h.post("/admin/clients/setup/reveal", { pid: "1001" });
    body = await res.text();
    expect(body).toContain("<!doctype html>");
    expect(body).toContain(SECRET);
    const rows = await reveals();
    expect(rows.map((r) => [r.actor, r.action, r.target])).toEqual([["alice", "merchant.reveal_secret", "merchant:1001"], ["alice", "merchant.reveal_secret", "merchant:1001"]]);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
  });

  test("show the V免签 QR code: the HOST/KEY text and its image, audited", async () => {
    const res = await h.post("/admin/clients/setup/reveal", { pid: "1001", vmq: "1" }, htmx);
    const body = await res.text();
    expect(body).toContain(`<code id="vmq-1-config">127.0.0.1:8080/${KEY}</code>`);
    expect(body).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="127\.0\.0\.1:8080\//);
    expect((await auditRows(h)).at(-1)).toMatchObject({ action: "vmq_client.reveal_key", target: "vmq_client:1", after: { name: "vmq-1", pid: 1001 } });
    expect(JSON.stringify(await auditRows(h))).not.toContain(KEY);
  });

  test("bad input shows nothing and logs nothing: unknown merchant, another merchant's client, no pid; a bad pid in the URL is 422", async () => {
    await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "another secret 1234", now: h.clock.now() });
    const cases: [Record<string, string>, number][] = [[{ pid: "77" }, 404], [{ pid: "1002", vmq: "1" }, 404], [{}, 422], [{ pid: "x" }, 422], [{ pid: "1001", vmq: "9" }, 404]];
    for (const [form, status] of cases) {
      const res = await h.post("/admin/clients/setup/reveal", form, htmx);
      const body = await res.text();
      expect({ form, status: res.status }).toEqual({ form, status });
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain(KEY);
    }
    expect(await reveals()).toEqual([]);
    for (const q of ["pid=abc", "pid=4242"]) {
      const { status, body } = await html(`/admin/clients/setup?${q}`);
      expect(status).toBe(422);
      expect(body).toContain('<p class="field-error" id="f-pid-error">请选择列表中的商户。</p>');
    }
  });

  test("the live list: the merchant's reports of the last 30 minutes, heartbeats and refusals too", async () => {
    await h.gw.store.setSetting("admin_session_idle", "7200");
    h.gw.forgetSettings();
    await beat("new-phone");
    await postJson(h, "/api/report/1001", { from: "x", content: "{}", timestamp: String(h.clock.now()), sign: "0".repeat(32) });
    const body = await (await h.get("/admin/clients/setup/live?pid=1001&since=0", htmx)).text();
    expect(body).toContain("new-phone");
    expect(body).toContain("已拒绝");
    expect(body).toContain("心跳");
    h.clock.advance(1801);
    expect(await (await h.get("/admin/clients/setup/live?pid=1001&since=0", htmx)).text()).toContain("最近 30 分钟没有收到该商户的上报。");
  });

  test("no merchant yet: says how to add one", async () => {
    const bare = await adminHarness();
    try {
      const body = await (await bare.get("/admin/clients/setup")).text();
      expect(body).toContain("xpay merchant add");
    } finally {
      bare.close();
    }
  });
});

describe("reserved amounts", () => {
  test("the held amounts with their orders and until when; the probe names the next payable amount, as the next create gets it", async () => {
    const a = await order("10.00");
    const b = await order("10.00");
    const { status, body } = await html("/admin/accounts/1/slots?amount=10.00");
    expect(status).toBe(200);
    expect([...body.matchAll(/<tr data-slot="(\d+)">/g)].map((m) => m[1])).toEqual(["999", "1000"]);
    expect(body).toContain(`href="/admin/orders/${a.trade_no}"`);
    expect(body).toContain(`href="/admin/orders/${b.trade_no}"`);
    expect(body).toContain("还剩 25 分 0 秒"); // 900 s to expiry + the 600 s match window
    expect(body).toContain("下一笔 10.00 元的订单在这个账户上将得到实付金额 9.98 元。");
    expect((await order("10.00")).trade_amount).toBe("9.98");
  });

  test("a bad amount: 422 with the inline error; an unknown account: 404; no amounts held: says so", async () => {
    for (const amount of ["ten", "0", "-1", "1.234"]) {
      const { status, body } = await html(`/admin/accounts/1/slots?amount=${encodeURIComponent(amount)}`);
      expect({ amount, status }).toEqual({ amount, status: 422 });
      expect(body).toContain('<p class="field-error" id="f-amount-error">请输入金额，例如 10.00。</p>');
      expect(body).toContain('aria-invalid="true"');
    }
    expect((await h.get("/admin/accounts/99/slots")).status).toBe(404);
    expect((await html("/admin/accounts/1/slots")).body).toContain('id="slots-none"');
  });
});
