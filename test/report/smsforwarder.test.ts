// Issue 30 item 3: SmsForwarder, unchanged, reports to xpay. Each request is built as the app builds
// it (smsforwarder-app.ts): the default POST form with its double-encoded sign, the JSON template
// of the setup page, the test button, a retry, a replay, a wrong secret, a stale timestamp and a
// chat that quotes the wording. Every one of these fails on a gateway without the route.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addClient } from "../../src/core/clients/keyed.ts";
import { SMS_JSON_TEMPLATE } from "../../src/core/clients/setup.ts";
import type { KeyedClient } from "../../src/core/store.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { createOrder } from "./util.ts";
import { ALIPAY, appSign, appSignBase64, defaultAppContent, defaultFormBody, jsonTemplateBody, testButtonContent, WECHAT } from "./smsforwarder-app.ts";

let h: Harness;
let phone: KeyedClient;
beforeEach(async () => {
  h = harness();
  await seed(h); // merchant 1001, its own Alipay account 1
  const r = await addClient(h.gw, CLI_ACTOR, { kind: "smsforwarder", pid: 1001, name: "phone1", accountIds: [] });
  if (!r.ok) throw new Error(r.reason);
  phone = r.client;
});
afterEach(() => h.close());

async function send(body: string, o: { id?: number; contentType?: string } = {}) {
  const res = await h.app.handle(
    new Request(`http://localhost/api/report/smsforwarder/${o.id ?? phone.id}`, {
      method: "POST",
      headers: { "content-type": o.contentType ?? "application/x-www-form-urlencoded", "user-agent": "Mozilla/5.0 (Linux; U; Android 13; zh-cn; Pixel 7 Build/TQ3A) AppleWebKit/533.1 (KHTML, like Gecko) Version/5.0 Mobile Safari/533.1" },
      body,
    }),
  );
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
}

const alipay = (text: string, title = "支付宝通知") => ({ pkg: ALIPAY, title, text });
const form = (n: { pkg: string; title: string; text: string; device?: string; time?: string }, o: { ts?: number; secret?: string } = {}) =>
  defaultFormBody(n.pkg, defaultAppContent(n), o.ts ?? h.clock.nowMs(), o.secret ?? phone.key);
const status = async (t: string) => (await h.gw.store.getOrder(t))?.status;

describe("the app's signature", () => {
  test("known answer: secret abc, timestamp 1764072000000 (computed outside xpay, in the app's terms)", () => {
    expect(appSignBase64("abc", 1764072000000)).toBe("67NQzLZXhUO00mtiqWEagqzZK8iGBmZ3lD9rGGN8ZAA=");
    expect(appSign("abc", 1764072000000)).toBe("67NQzLZXhUO00mtiqWEagqzZK8iGBmZ3lD9rGGN8ZAA%3D");
    // On the wire of the default POST the sign is encoded a second time.
    expect(defaultFormBody("x", "y", 1764072000000, "abc")).toEndWith("&sign=67NQzLZXhUO00mtiqWEagqzZK8iGBmZ3lD9rGGN8ZAA%253D");
  });
});

describe("the default POST form", () => {
  test("an Alipay notification pays its order; the notification is enqueued and the phone is online", async () => {
    const o = await createOrder(h);
    const r = await send(form(alipay("你已成功收款10.00元")));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, data: { outcome: "matched", trade_no: o.trade_no } });
    expect(await status(o.trade_no)).toBe(2);
    const [stored] = await h.gw.store.listReports({ outcome: "matched" });
    expect(stored).toMatchObject({ kind: "message", pid: 1001, client: "phone1", amount: 1000, payType: "alipay" });
    // Stored in the spec's message shape: the console and the rules read it like any forwarded message.
    expect(JSON.parse(JSON.parse(stored!.raw).content)).toMatchObject({ package_name: ALIPAY, title: "支付宝通知", msg: "你已成功收款10.00元" });
    const seen = (await h.gw.store.listClients()).find((c) => c.name === "phone1");
    expect(seen).toMatchObject({ kind: "smsforwarder", pid: 1001, lastSeenAt: h.clock.now() });
    expect((await h.gw.store.getChannel(1))?.lastSeenAt).toBe(h.clock.now());
  });

  test("a device name and a text with line breaks are read from both ends of the template", async () => {
    const o = await createOrder(h, { money: "66.60" });
    const notice = { pkg: WECHAT, title: "微信支付", text: "微信支付收款66.60元(朋友到店)", device: "收款机-2" };
    expect((await send(form(notice))).body.data).toMatchObject({ outcome: "unmatched" }); // a WeChat payment, but the account is Alipay
    await h.gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wx", name: "WX", qrcode: "wxp://f2f0", now: h.clock.now() });
    const wx = await createOrder(h, { money: "66.60", pay_type: "wxpay" });
    h.clock.advance(1);
    // The same notification again is a duplicate of the first (stored, nothing to pay then); the
    // payer's next payment arrives as a new notification (another receive time).
    expect((await send(form(notice))).body.data.outcome).toBe("duplicate");
    h.clock.advance(1);
    expect((await send(form({ ...notice, time: "2026-11-25 20:00:07" }))).body.data).toMatchObject({ outcome: "matched", trade_no: wx.trade_no });
    // A chat whose text spans lines and ends with the wording is not a payment.
    h.clock.advance(1);
    const chat = await send(form({ pkg: WECHAT, title: "微信支付", text: "转发一下：\n微信支付收款66.60元" }));
    expect(chat.body.data.outcome).toBe("unmatched");
    expect(chat.body.data.reason).toMatch(/^not a payment message/);
    expect(await status(o.trade_no)).toBe(1);
  });

  test("the app's retry (the same bytes) is a duplicate with a 200; a replay with another text pays nothing", async () => {
    const o = await createOrder(h);
    const other = await createOrder(h, { money: "20.00" });
    const ts = h.clock.nowMs();
    const body = form(alipay("你已成功收款10.00元"), { ts });
    expect((await send(body)).body.data.outcome).toBe("matched");
    const again = await send(body);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ outcome: "duplicate", trade_no: "" });
    // The sign covers the timestamp only: a captured request with the text changed is refused as used.
    const forged = await send(form(alipay("你已成功收款20.00元"), { ts }));
    expect(forged.status).toBe(200);
    expect(forged.body.data.outcome).toBe("duplicate");
    expect([await status(o.trade_no), await status(other.trade_no)]).toEqual([2, 1]);
    expect((await h.gw.store.listReports({})).filter((r) => r.kind === "message").length).toBe(1);
    expect((await h.gw.store.listNotifications({})).length).toBe(0); // no notify_url on these orders
  });

  test("the same notification forwarded again (a new timestamp: the app's resend) is a duplicate", async () => {
    const o = await createOrder(h);
    expect((await send(form(alipay("你已成功收款10.00元")))).body.data.outcome).toBe("matched");
    h.clock.advance(5);
    expect((await send(form(alipay("你已成功收款10.00元")))).body.data.outcome).toBe("duplicate");
    expect(await status(o.trade_no)).toBe(2);
  });

  test("a wrong secret and an unknown client read alike: 401, stored where refusals go", async () => {
    const o = await createOrder(h);
    const wrong = await send(form(alipay("你已成功收款10.00元"), { secret: "not-the-secret-000000" }));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 401, data: null });
    const nobody = await send(form(alipay("你已成功收款10.00元")), { id: 999 });
    expect(nobody).toEqual(wrong);
    expect(await status(o.trade_no)).toBe(1);
    const refused = await h.gw.store.listReports({ outcome: "rejected" });
    expect(refused.length).toBe(2);
    expect(refused[0]!.reason).toMatch(/signature mismatch/);
  });

  test("a stale or future timestamp: 400 with the reason, stored as refused", async () => {
    const o = await createOrder(h);
    for (const skew of [-121, 121]) {
      const r = await send(form(alipay("你已成功收款10.00元"), { ts: h.clock.nowMs() + skew * 1000 }));
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/more than 120 s from the server's clock/);
    }
    expect(await status(o.trade_no)).toBe(1);
    expect((await h.gw.store.listReports({ outcome: "rejected" })).length).toBe(2);
  });

  test("a chat, a group and a red packet that quote the wording pay nothing", async () => {
    const o = await createOrder(h);
    const spoofs = [
      alipay("你已成功收款10.00元", "王小明"), // a chat from a contact
      { pkg: WECHAT, title: "微信支付", text: "[3条]张三: 个人收款码到账¥10.00" },
      alipay("送你一个红包，你已成功收款10.00元"),
    ];
    for (const n of spoofs) {
      h.clock.advance(1);
      const r = await send(form(n));
      expect(r.status).toBe(200);
      expect(r.body.data.outcome).toBe("unmatched");
      expect(r.body.data.reason).toMatch(/^not a payment message/);
    }
    expect(await status(o.trade_no)).toBe(1);
  });

  test("the app's test button gets a 200 and is stored as not a payment", async () => {
    const t = testButtonContent();
    const r = await send(defaultFormBody(t.from, t.content, h.clock.nowMs(), phone.key));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ outcome: "unmatched" });
    expect(r.body.data.reason).toMatch(/^not a payment message/);
    const [stored] = await h.gw.store.listReports({ outcome: "unmatched" });
    expect(JSON.parse(JSON.parse(stored!.raw).content)).toMatchObject({ from: "19999999999", title: "SIM1_测试运营商_18888888888" });
    // The app sends no heartbeat: any accepted request keeps the phone's accounts online.
    expect((await h.gw.store.getChannel(1))?.lastSeenAt).toBe(h.clock.now());
  });

  test("content that is not the default template is a 400 that says what to change", async () => {
    const ts = h.clock.nowMs();
    const body = `from=x&content=${encodeURIComponent("just some text")}&timestamp=${ts}&sign=${encodeURIComponent(appSign(phone.key, ts))}`;
    const r = await send(body);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/default template/);
  });
});

describe("the JSON template of the setup page", () => {
  test("pays like the default form; its sign is encoded once; text with quotes and < > & is escaped by the app and read back", async () => {
    const o = await createOrder(h);
    const body = jsonTemplateBody(SMS_JSON_TEMPLATE, { pkg: ALIPAY, title: "支付宝通知", text: "你已成功收款10.00元" }, h.clock.nowMs(), phone.key);
    expect(JSON.parse(body).sign).toMatch(/%3D$|%2B|%2F|^[A-Za-z0-9]+$/);
    const r = await send(body, { contentType: "application/json" });
    expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
    h.clock.advance(1);
    const odd = jsonTemplateBody(SMS_JSON_TEMPLATE, { pkg: ALIPAY, title: '"<b>"&', text: "a=b & <i>'x'</i>" }, h.clock.nowMs(), phone.key);
    const r2 = await send(odd, { contentType: "application/json" });
    expect(r2.body.data.outcome).toBe("unmatched");
    const [stored] = await h.gw.store.listReports({ outcome: "unmatched" });
    expect(JSON.parse(JSON.parse(stored!.raw).content)).toMatchObject({ title: '"<b>"&', msg: "a=b & <i>'x'</i>" });
  });
});
