// Issue 17, the console's merchant pages: the list with order counts, add (the AppSecret shown
// once, on the answer to the POST, never in the audit log or on a later page), the options form
// with the CLI's checks (422 and nothing changed), enable/disable, a new AppSecret, V2 keys (the
// private key shown once; replacing existing keys only with the confirmation), names escaped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { keyFingerprint } from "../../src/core/merchant-keys.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
beforeAll(async () => {
  h = await adminHarness();
  await h.gw.store.addMerchant({ pid: 1001, name: "Shop", secret: "s".repeat(32), now: h.clock.now() });
});
afterAll(() => h.close());

const merchants = async () => JSON.stringify(await h.gw.store.listMerchants());
const auditText = async () => JSON.stringify(await auditRows(h));
const lastAudit = async () => (await auditRows(h)).at(-1)!;

/** Every page an operator can open about merchants, as one text. */
async function laterPages(): Promise<string> {
  const pages = [];
  for (const m of await h.gw.store.listMerchants()) pages.push(await (await h.get(`/admin/merchants/${m.pid}`)).text());
  pages.push(await (await h.get("/admin/merchants")).text(), await (await h.get("/admin/audit")).text());
  return pages.join("\n");
}

describe("list and add", () => {
  test("the list shows each merchant with status and order counts; an empty name is refused inline", async () => {
    const html = await (await h.get("/admin/merchants")).text();
    expect(html).toContain('data-pid="1001"');
    expect(html).toContain("Shop");
    expect(html).toContain('id="merchant-add"');
  });

  test("bad inputs: 422 with the message under the field, no merchant added, no audit row", async () => {
    const before = await merchants();
    const audit = await auditText();
    const cases: [Record<string, string>, string][] = [
      [{ name: "  " }, "请填写名称。"],
      [{ name: "x".repeat(129) }, "名称最多 128 个字符。"],
      [{ name: "New", pid: "abc" }, "PID 须为正整数。"],
      [{ name: "New", pid: "0" }, "PID 须为正整数。"],
      [{ name: "New", pid: "1001" }, "PID 1001 已被占用。"],
    ];
    for (const [form, message] of cases) {
      const res = await h.post("/admin/merchants", form);
      expect({ form, status: res.status }).toEqual({ form, status: 422 });
      const html = await res.text();
      expect(html).toContain(message);
      expect(html).toContain('aria-invalid="true"');
    }
    expect(await merchants()).toBe(before);
    expect(await auditText()).toBe(audit);
  });

  test("a new merchant's AppSecret: not stored for later pages nor the audit log; the page says where it can be shown again, and it can", async () => {
    const res = await h.post("/admin/merchants", { name: "Tea house", pid: "2001" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    const m = (await h.gw.store.getMerchant(2001))!;
    expect(m.name).toBe("Tea house");
    expect(m.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(html).toContain(`<pre class="once-text" id="new-secret">${m.secret}</pre>`);
    expect(html).toContain('data-copy="#new-secret"');
    // Issue 28 item 8: not "never shown again" while the setup helper reveals it (audited).
    expect(html).not.toContain("这是唯一一次显示");
    expect(html).toContain('id="secret-again"');
    expect(html).toContain('href="/admin/clients/setup?pid=2001"');
    expect(html).toContain("xpay merchant show 2001 --show-secret");
    const row = await lastAudit();
    expect(row).toMatchObject({ actor: "alice", action: "merchant.add", target: "merchant:2001", after: { pid: 2001, name: "Tea house", active: true } });
    expect(await auditText()).not.toContain(m.secret);
    expect(await laterPages()).not.toContain(m.secret);
    const again = await h.post("/admin/clients/setup/reveal", { pid: "2001" });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain(m.secret);
    expect((await lastAudit()).target).toBe("merchant:2001");
  });

  test("the notification column says the method each family really sends with (epay GET, not the native POST)", async () => {
    const html = await (await h.get("/admin/merchants")).text();
    const row = html.slice(html.indexOf('data-pid="1001"'), html.indexOf("</tr>", html.indexOf('data-pid="1001"')));
    expect(row).toContain('<span class="notify-method" data-method="GET"><code>GET</code> <span>易支付 V1 · 易支付 V2 · V免签</span></span>');
    expect(row).toContain('<span class="notify-method" data-method="POST"><code>POST</code> <span>原生 · hashpay</span></span>');
    await h.gw.store.updateMerchant(1001, { notifyMethod: "GET" });
    const after = await (await h.get("/admin/merchants")).text();
    await h.gw.store.updateMerchant(1001, { notifyMethod: "POST" }); // as the other tests expect it
    const getRow = after.slice(after.indexOf('data-pid="1001"'), after.indexOf("</tr>", after.indexOf('data-pid="1001"')));
    expect(getRow).toContain('<code>GET</code> <span>原生 · 易支付 V1 · 易支付 V2 · V免签</span>');
    expect(getRow).toContain('<code>POST</code> <span>hashpay</span>');
  });

  test("without a pid the next free one is taken", async () => {
    const res = await h.post("/admin/merchants", { name: "Auto" });
    expect(res.status).toBe(200);
    expect((await h.gw.store.listMerchants()).find((m) => m.name === "Auto")?.pid).toBe(2002);
  });
});

describe("one merchant", () => {
  test("unknown merchant: 404", async () => {
    expect((await h.get("/admin/merchants/9")).status).toBe(404);
    expect((await h.post("/admin/merchants/9", { name: "x", notify_method: "POST" })).status).toBe(404);
    expect((await h.post("/admin/merchants/9/rotate-secret")).status).toBe(404);
  });

  test("options form: bad values are 422 under their fields and change nothing", async () => {
    const before = await merchants();
    const audit = await auditText();
    const cases: [Record<string, string>, string][] = [
      [{ name: "", notify_method: "POST" }, "请填写名称。"],
      [{ name: "Shop", notify_method: "PUT" }, "通知方式只能是 POST 或 GET。"],
      [{ name: "Shop", notify_method: "POST", s_pay_account_tip_cover: "2" }, "该值无效：须为以下之一：0, 1。"],
      [{ name: "Shop", notify_method: "POST", s_pay_payed_wait_time: "99" }, "该值无效：须为 0 到 60 之间的整数。"],
      [{ name: "Shop", notify_method: "POST", s_vmq_notify_url: "javascript:alert(1)" }, "该值无效："],
      [{ name: "Shop", notify_method: "POST", s_vmq_url_hosts: "shop.example.com/notify" }, "请填写用逗号分隔的主机名"],
    ];
    for (const [form, message] of cases) {
      const res = await h.post("/admin/merchants/1001", form);
      expect({ form, status: res.status }).toEqual({ form, status: 422 });
      expect(await res.text()).toContain(message);
    }
    expect(await merchants()).toBe(before);
    expect(await auditText()).toBe(audit);
  });

  test("options form: name, method and overrides saved and audited with before and after", async () => {
    const res = await h.post("/admin/merchants/1001", { name: "Shop 2", notify_method: "GET", s_pay_tip: "hello", s_service_qq: "" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/merchants/1001?done=saved");
    const m = (await h.gw.store.getMerchant(1001))!;
    expect(m).toMatchObject({ name: "Shop 2", notifyMethod: "GET", settings: { pay_tip: "hello" } });
    expect(await lastAudit()).toMatchObject({
      action: "merchant.edit", target: "merchant:1001",
      before: { name: "Shop", notify_method: "POST", settings: {} }, after: { name: "Shop 2", notify_method: "GET", settings: { pay_tip: "hello" } },
    });
    expect(await (await h.get("/admin/merchants/1001?done=saved")).text()).toContain("已保存。");
  });

  test("V免签 addresses (issue 27 item 5): shown, saved and audited like the other settings", async () => {
    expect(await (await h.get("/admin/merchants/1001")).text()).toContain('id="merchant-vmq"');
    const form = { name: "Shop 2", notify_method: "GET", s_pay_tip: "hello", s_vmq_notify_url: "https://shop.example.com/pay/vpay/notify_url", s_vmq_url_hosts: "shop.example.com, Shop.Example.com:8443" };
    expect((await h.post("/admin/merchants/1001", form)).status).toBe(303);
    expect((await h.gw.store.getMerchant(1001))!.settings).toEqual({ pay_tip: "hello", vmq_notify_url: "https://shop.example.com/pay/vpay/notify_url", vmq_url_hosts: "shop.example.com, Shop.Example.com:8443" });
    expect(await lastAudit()).toMatchObject({ action: "merchant.edit", after: { settings: { vmq_url_hosts: "shop.example.com, Shop.Example.com:8443" } } });
    const page = await (await h.get("/admin/merchants/1001")).text();
    expect(page).toContain('value="https://shop.example.com/pay/vpay/notify_url"');
    expect((await h.post("/admin/merchants/1001", { name: "Shop 2", notify_method: "GET", s_pay_tip: "hello" })).status).toBe(303);
    expect((await h.gw.store.getMerchant(1001))!.settings).toEqual({ pay_tip: "hello" });
  });

  test("disable and enable, audited", async () => {
    expect((await h.post("/admin/merchants/1001/disable")).status).toBe(303);
    expect((await h.gw.store.getMerchant(1001))!.active).toBe(false);
    expect(await lastAudit()).toMatchObject({ action: "merchant.disable", before: { active: true }, after: { active: false } });
    expect(await (await h.get("/admin/merchants/1001")).text()).toContain("此商户已停用");
    expect((await h.post("/admin/merchants/1001/enable")).status).toBe(303);
    expect((await h.gw.store.getMerchant(1001))!.active).toBe(true);
    expect(await lastAudit()).toMatchObject({ action: "merchant.enable", after: { active: true } });
  });

  test("a new AppSecret: shown once, the old one gone, nothing of it in the log or later pages", async () => {
    const old = (await h.gw.store.getMerchant(1001))!.secret;
    const res = await h.post("/admin/merchants/1001/rotate-secret");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const secret = (await h.gw.store.getMerchant(1001))!.secret;
    expect(secret).not.toBe(old);
    expect(await res.text()).toContain(`id="new-secret">${secret}</pre>`);
    expect(await lastAudit()).toMatchObject({ action: "merchant.rotate_secret", target: "merchant:1001", before: null, after: null });
    expect(await auditText()).not.toContain(secret);
    expect(await laterPages()).not.toContain(secret);
  });
});

describe("V2 keys", () => {
  const body = (pem: string) => pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");

  test("the first pair needs no confirmation; the private key is shown once and kept nowhere", async () => {
    const res = await h.post("/admin/merchants/1001/keys");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    const privatePem = html.match(/id="private-key">([^<]+)<\/pre>/)![1]!;
    expect(privatePem).toContain("-----BEGIN PRIVATE KEY-----");
    const m = (await h.gw.store.getMerchant(1001))!;
    expect(html).toContain(m.rsaPublicKey!.trim().split("\n")[1]!);
    expect(html).toContain('id="platform-key"');
    const fingerprint = keyFingerprint(m.rsaPublicKey)!;
    expect(fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(await lastAudit()).toMatchObject({ action: "merchant.keygen", before: { fingerprint: null }, after: { fingerprint } });
    expect(await (await h.get("/admin/merchants/1001")).text()).toContain(`id="key-fingerprint">${fingerprint}</code>`);
    const everything = (await auditText()) + (await laterPages()) + JSON.stringify(await h.gw.store.getSettings()) + JSON.stringify(await h.gw.store.listMerchants());
    expect(everything).not.toContain(body(privatePem).slice(0, 64));
  });

  test("replacing existing keys without the confirmation: 422, the keys stay", async () => {
    const before = await merchants();
    const audit = await auditText();
    for (const form of [{}, { replace: "0" }, { replace: "yes" }] as Record<string, string>[]) {
      const res = await h.post("/admin/merchants/1001/keys", form);
      expect(res.status).toBe(422);
      const html = await res.text();
      expect(html).toContain("替换已有密钥前请勾选确认。");
      expect(html).not.toContain("请更正标出的字段"); // the options form above is not at fault
    }
    expect(await merchants()).toBe(before);
    expect(await auditText()).toBe(audit);
  });

  test("with the confirmation the pair is replaced", async () => {
    const old = (await h.gw.store.getMerchant(1001))!.rsaPublicKey;
    const res = await h.post("/admin/merchants/1001/keys", { replace: "1" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("之前的密钥对已失效");
    expect((await h.gw.store.getMerchant(1001))!.rsaPublicKey).not.toBe(old);
    expect(await lastAudit()).toMatchObject({ action: "merchant.keygen", before: { fingerprint: expect.stringMatching(/^SHA256:/) } });
  });
});

test("a merchant name holding markup is shown as text on the list, its page and the secret page", async () => {
  const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>`;
  const res = await h.post("/admin/merchants", { name: evil, pid: "3001" });
  expect(res.status).toBe(200);
  const pages = [await res.text(), await (await h.get("/admin/merchants")).text(), await (await h.get("/admin/merchants/3001")).text()];
  for (const html of pages) {
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  }
});
