// Issue 17, the console's receiving accounts: the list with today's income against the daily
// limit (the figure the allocation counts) and the monitor's state; add and edit with the CLI's
// rule (422 under the field, nothing changed), yuan in the form; remove (refused once an order used
// the account), enable/disable, each audited; the QR preview; names escaped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { accountsToday } from "../../src/core/accounts-today.ts";
import { createOrder } from "../../src/core/create-order.ts";
import { devPay } from "../../src/core/dev/actions.ts";
import { incomeStats } from "../../src/core/stats/income.ts";
import type { NewOrder } from "../../src/core/types.ts";
import { startOfDay } from "../../src/core/ids.ts";
import { renderQr } from "../../src/server/qrcode.ts";
import { type AdminHarness, adminHarness, auditRows } from "./support.ts";

let h: AdminHarness;
let n = 0;
beforeAll(async () => {
  h = await adminHarness();
  await h.gw.store.addMerchant({ pid: 1001, name: "Shop", secret: "s".repeat(32), now: h.clock.now() });
});
afterAll(() => h.close());

const accounts = async () => JSON.stringify(await h.gw.store.listChannels());
const auditText = async () => JSON.stringify(await auditRows(h));
const lastAudit = async () => (await auditRows(h)).at(-1)!;
const GOOD = { pid: "1001", pay_type: "alipay", code: "ali1", name: "Alipay A", qrcode: "https://qr.alipay.com/fkx001", scheme: "", min: "", max: "500", day: "100.00", sort: "", remark: "" };

async function paid(amount: number, payType = "alipay") {
  const merchant = (await h.gw.store.getMerchant(1001))!;
  const o: NewOrder = { pid: 1001, outTradeNo: `o${++n}`, family: "native", payType, name: "x", amount, notifyUrl: "", returnUrl: "", param: "", clientip: "", device: "pc", extra: {} };
  const r = await createOrder(h.gw, merchant, o);
  if (!r.ok) return r.reason;
  const p = await devPay(h.gw, r.order.tradeNo);
  return p.ok ? p.order.tradeAmount : p.reason;
}

describe("add", () => {
  test("bad inputs: 422, the message under its field, nothing added, no audit row", async () => {
    await h.post("/admin/accounts", { ...GOOD, pid: "0", code: "taken" }); // a shared account for the clash below
    const before = await accounts();
    const audit = await auditText();
    const cases: [Record<string, string>, string, string][] = [
      [{ max: "12.345" }, "max", "金额格式不对"],
      [{ day: "abc" }, "day", "金额格式不对"],
      [{ min: "-1" }, "min", "金额格式不对"],
      [{ min: "600", max: "500" }, "min", "单笔最低 600.00 元高于单笔最高 500.00 元"],
      [{ min: "150", day: "100" }, "day", "日限额 100.00 元低于单笔最低 150.00 元"],
      [{ qrcode: "   " }, "qrcode", "请填写收款码内容"],
      [{ code: "" }, "code", "请填写通道代码"],
      [{ code: "c".repeat(65) }, "code", "通道代码最多 64 个字符"],
      [{ name: " " }, "name", "请填写名称。"],
      [{ pay_type: "bank" }, "pay_type", "支付方式须为：alipay, wxpay, qqpay。"],
      [{ pid: "77" }, "pid", "没有 PID 为 77 的商户。"],
      [{ pid: "x" }, "pid", "请选择归属商户。"],
      [{ code: "taken" }, "code", "通道代码 taken 已被账户 1（共享，支付宝）使用"],
      [{ sort: "1.5" }, "sort", "请填写整数。"],
      [{ max: "5.001" }, "max", "金额格式不对"],
      [{ qrcode: "not a url" }, "qrcode", "这不是网址（URL），付款人的 App 无法打开。支付宝收款码的内容形如 https://qr.alipay.com/...。"],
      [{ qrcode: "not a url", qrcode_force: "1" }, "qrcode", "这不是网址（URL）"],
      [{ qrcode: "wxp://f2f0abc" }, "qrcode", "支付宝收款码通常形如 https://qr.alipay.com/...，这个不是。"],
    ];
    for (const [change, field, message] of cases) {
      const res = await h.post("/admin/accounts", { ...GOOD, ...change });
      expect({ change, status: res.status }).toEqual({ change, status: 422 });
      const html = await res.text();
      expect({ change, has: html.includes(message) }).toEqual({ change, has: true });
      expect(html).toMatch(new RegExp(`id="f-${field}"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="f-${field}"`));
    }
    expect(await accounts()).toBe(before);
    expect(await auditText()).toBe(audit);
  });

  test("a good account is added (yuan to cents) and audited", async () => {
    const res = await h.post("/admin/accounts", GOOD);
    expect(res.status).toBe(303);
    const a = (await h.gw.store.listChannels()).find((x) => x.code === "ali1")!;
    expect(res.headers.get("location")).toBe(`/admin/accounts?done=added&id=${a.id}`);
    expect(a).toMatchObject({ pid: 1001, payType: "alipay", name: "Alipay A", minAmount: 0, maxAmount: 50000, dayAmount: 10000, enabled: true });
    expect(await lastAudit()).toMatchObject({ actor: "alice", action: "account.add", target: `account:${a.id}`, after: { code: "ali1", max_amount_cents: 50000, day_amount_cents: 10000 } });
  });
});

describe("list: today's income against the daily limit, and the monitor", () => {
  test("paid orders of today count, the same figure the allocation refuses by and xpay stats shows", async () => {
    const a = (await h.gw.store.listChannels()).find((x) => x.code === "ali1")!;
    await h.post(`/admin/accounts/1/disable`); // the shared one: every order goes to ali1
    expect(await paid(4000)).toBe(4000);
    expect(await paid(4500)).toBe(4500);
    const html = await (await h.get("/admin/accounts")).text();
    const row = html.slice(html.indexOf(`data-account="${a.id}"`));
    expect(row).toContain('data-today="8500"');
    expect(row).toContain("<strong>85.00</strong>");
    expect(row).toContain("100.00");
    expect(html).toContain(`<tr data-account="${a.id}" class="row-warn">`); // 85 % of the limit: near it
    const stats = await incomeStats(h.gw, { from: startOfDay(h.clock.now()), to: h.clock.now() + 1, by: "account" });
    expect(stats.rows.find((r) => r.key === String(a.id))?.paidAmount).toBe(8500);
    expect(await paid(1600)).toBe("daily limit reached on every account"); // 85 + 16 > 100
    expect(await paid(1500)).toBe(1500);
    expect((await accountsToday(h.gw)).rows.find((r) => r.account.id === a.id)?.paidToday).toBe(10000);
  });

  test("the monitor: never seen, online within heartbeat_timeout, offline after", async () => {
    const a = (await h.gw.store.listChannels()).find((x) => x.code === "ali1")!;
    const monitor = async () => {
      const html = await (await h.get("/admin/accounts")).text();
      const row = html.slice(html.indexOf(`data-account="${a.id}"`));
      return row.slice(0, row.indexOf("</tr>"));
    };
    await h.gw.store.updateChannel(a.id, { lastSeenAt: 0 });
    expect(await monitor()).toContain("从未上报");
    await h.gw.store.updateChannel(a.id, { lastSeenAt: h.clock.now() - 90 });
    expect(await monitor()).toContain(">在线<");
    await h.gw.store.updateChannel(a.id, { lastSeenAt: h.clock.now() - 91 });
    expect(await monitor()).toContain(">离线<");
  });
});

describe("edit, enable/disable, remove", () => {
  test("the form shows the saved account in yuan; a new daily limit is saved, listed and audited", async () => {
    const a = (await h.gw.store.listChannels()).find((x) => x.code === "ali1")!;
    const form = await (await h.get(`/admin/accounts/${a.id}`)).text();
    expect(form).toContain('name="day" type="text" value="100.00"');
    expect(form).toContain(`src="/admin/accounts/qr?text=${encodeURIComponent(a.qrcode)}"`);
    const res = await h.post(`/admin/accounts/${a.id}`, { ...GOOD, day: "2000" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/accounts?done=saved&id=${a.id}`);
    expect((await h.gw.store.getChannel(a.id))!.dayAmount).toBe(200000);
    expect(await lastAudit()).toEqual(expect.objectContaining({ action: "account.edit", before: { day_amount_cents: 10000 }, after: { day_amount_cents: 200000 } }));
    expect(await (await h.get(`/admin/accounts?done=saved&id=${a.id}`)).text()).toContain(`账户 ${a.id} 已保存。`);
  });

  test("bad edits change nothing; owner and pay type stay once orders used the account", async () => {
    const a = (await h.gw.store.listChannels()).find((x) => x.code === "ali1")!;
    const before = await accounts();
    const audit = await auditText();
    for (const [change, message] of [[{ pid: "0" }, `账户 ${a.id} 已被 3 笔订单使用`], [{ pay_type: "wxpay" }, "不能再更改归属商户和支付方式"], [{ max: "1.001" }, "金额格式不对"]] as const) {
      const res = await h.post(`/admin/accounts/${a.id}`, { ...GOOD, ...change });
      expect(res.status).toBe(422);
      expect(await res.text()).toContain(message);
    }
    expect(await accounts()).toBe(before);
    expect(await auditText()).toBe(audit);
    expect((await h.post("/admin/accounts/999", GOOD)).status).toBe(404);
    expect((await h.get("/admin/accounts/999")).status).toBe(404);
  });

  test("disable and enable, audited", async () => {
    const a = (await h.gw.store.listChannels()).find((x) => x.code === "ali1")!;
    expect((await h.post(`/admin/accounts/${a.id}/disable`)).status).toBe(303);
    expect((await h.gw.store.getChannel(a.id))!.enabled).toBe(false);
    expect(await lastAudit()).toMatchObject({ action: "account.disable", target: `account:${a.id}`, before: { enabled: true }, after: { enabled: false } });
    expect((await h.post(`/admin/accounts/${a.id}/enable`)).status).toBe(303);
    expect(await lastAudit()).toMatchObject({ action: "account.enable" });
  });

  test("a used account is not removed; an unused one is, audited", async () => {
    const used = (await h.gw.store.listChannels()).find((x) => x.code === "ali1")!;
    const res = await h.post(`/admin/accounts/${used.id}/remove`);
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(`账户 ${used.id} 已被 3 笔订单使用，不能删除`);
    expect(await h.gw.store.getChannel(used.id)).not.toBeNull();
    const gone = await h.post("/admin/accounts/1/remove");
    expect(gone.status).toBe(303);
    expect(await h.gw.store.getChannel(1)).toBeNull();
    expect(await lastAudit()).toMatchObject({ action: "account.remove", target: "account:1", before: { code: "taken", pid: 0 } });
  });
});

test("the QR preview is the cashier's PNG of the content, behind the session", async () => {
  const res = await h.get(`/admin/accounts/qr?text=${encodeURIComponent("wxp://f2f0abc")}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const r = await renderQr("wxp://f2f0abc", "png", 240);
  expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(r.ok ? (r.body as Uint8Array) : new Uint8Array()))).toBe(true);
  expect((await h.get("/admin/accounts/qr")).status).toBe(400);
  expect((await h.get(`/admin/accounts/qr?text=${"x".repeat(1025)}`)).status).toBe(400);
  expect((await h.get("/admin/accounts/qr?text=x", { cookie: null })).status).toBe(303);
});

test("an account name holding markup is shown as text on the list and the form", async () => {
  const evil = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`;
  expect((await h.post("/admin/accounts", { ...GOOD, code: "evil", name: evil, qrcode: `https://x.example/"><script>alert(3)</script>`, qrcode_force: "1" })).status).toBe(303);
  const a = (await h.gw.store.listChannels()).find((x) => x.code === "evil")!;
  for (const html of [await (await h.get("/admin/accounts")).text(), await (await h.get(`/admin/accounts/${a.id}`)).text()]) {
    expect(html).not.toContain("<script>alert(");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  }
});

test("every account row, and the account's form, link to its held amounts (/admin/accounts/:id/slots)", async () => {
  const ids = (await h.gw.store.listChannels()).map((a) => a.id);
  expect(ids.length).toBeGreaterThan(1);
  const html = await (await h.get("/admin/accounts")).text();
  const rows = [...html.matchAll(/<tr data-account="(\d+)"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => [Number(m[1]), m[2]!] as const);
  expect(rows.map(([id]) => id).sort()).toEqual([...ids].sort());
  for (const [id, row] of rows) expect({ id, link: row.includes(`href="/admin/accounts/${id}/slots"`) }).toEqual({ id, link: true });
  for (const id of ids) {
    expect(await (await h.get(`/admin/accounts/${id}`)).text()).toContain(`href="/admin/accounts/${id}/slots" id="account-slots"`);
    expect((await h.get(`/admin/accounts/${id}/slots`)).status).toBe(200);
  }
  expect(await (await h.get("/admin/accounts/new")).text()).not.toContain("/slots");
});

describe("QR content per pay type (issue 31)", () => {
  test("an unusual URL is refused with the box to tick; ticked, it is saved; the box speaks English too", async () => {
    const form = { ...GOOD, pay_type: "wxpay", code: "wx_zan", qrcode: "https://payapp.weixin.qq.com/qr/zan" };
    const first = await h.post("/admin/accounts", form);
    expect(first.status).toBe(422);
    const html = await first.text();
    expect(html).toContain("微信支付收款码通常形如 wxp://...");
    expect(html).toMatch(/<input type="checkbox" name="qrcode_force" value="1"\s*\/?>\s*<span>不是常见格式，仍然保存<\/span>/);
    const en = await h.post("/admin/accounts", form, { cookie: `${h.login.cookie}; xpay_lang=en` });
    expect(await en.text()).toContain("Not a usual format; save it anyway");
    // A usual form shows no box.
    expect(await (await h.get("/admin/accounts/new")).text()).not.toContain('name="qrcode_force"');
    const saved = await h.post("/admin/accounts", { ...form, qrcode_force: "1" });
    expect(saved.status).toBe(303);
    const a = (await h.gw.store.listChannels()).find((x) => x.code === "wx_zan")!;
    expect(a.qrcode).toBe("https://payapp.weixin.qq.com/qr/zan");
    expect(a.maxAmount).toBe(50000); // "500" in the form is 500 yuan
  });
});

test("the next day (China time) starts from zero", async () => {
  const a = (await h.gw.store.listChannels()).find((x) => x.code === "ali1")!;
  h.clock.advance(startOfDay(h.clock.now()) + 86400 - h.clock.now());
  expect((await accountsToday(h.gw)).rows.find((r) => r.account.id === a.id)?.paidToday).toBe(0);
});
