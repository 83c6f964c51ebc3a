import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder, report, smsContent } from "./util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const order = (t: string) => h.gw.store.getOrder(t);

describe("report kinds pay the matching order", () => {
  test("amount report (POST JSON) pays the one pending order with that trade_amount", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/notify" });
    const r = await amountReport(h, 1000, { pay_user: "buyer@example.com" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, data: { outcome: "matched", trade_no: o.trade_no } });
    const paid = await order(o.trade_no);
    expect(paid?.status).toBe(2);
    expect(paid?.buyer).toBe("buyer@example.com");
    expect((await h.gw.store.getNotification(o.trade_no))?.status).toBe("pending");
    const [stored] = await h.gw.store.listReports({});
    expect(stored).toMatchObject({ kind: "amount", outcome: "matched", tradeNo: o.trade_no, amount: 1000 });
  });

  test("amount report by GET query with a 13-digit millisecond timestamp", async () => {
    const o = await createOrder(h);
    const r = await report(h, "/1001/pc", { amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" }, { method: "GET", timestamp: h.clock.nowMs() });
    expect(r.body.data.outcome).toBe("matched");
    expect((await order(o.trade_no))?.status).toBe(2);
  });

  test("notification message report parses the SmsForwarder content", async () => {
    const o = await createOrder(h);
    const r = await report(h, "/1001", { from: "com.eg.android.AlipayGphone", content: smsContent("支付宝通知", "你已成功收款10.00元") });
    expect(r.body).toMatchObject({ code: 200, data: { outcome: "matched", trade_no: o.trade_no } });
    expect((await order(o.trade_no))?.status).toBe(2);
    const clients = await h.gw.store.listClients();
    expect(clients[0]).toMatchObject({ kind: "phone", pid: 1001, name: "Redmi-9" });
  });

  test("WeChat and QQ wordings pay orders of their own pay type", async () => {
    for (const payType of ["wxpay", "qqpay"]) {
      await h.gw.store.addChannel({ pid: 1001, payType, code: `${payType}_qr`, name: payType, qrcode: `https://example.com/${payType}`, now: h.clock.now() });
    }
    const wx = await createOrder(h, { pay_type: "wxpay", money: "12.34" });
    const qq = await createOrder(h, { pay_type: "qqpay", money: "0.50" });
    const ali = await createOrder(h, { money: "12.34" });
    const w = await report(h, "/1001", { from: "wx", content: smsContent("微信支付", "微信支付收款12.34元(朋友到店)", "com.tencent.mm") });
    expect(w.body.data).toMatchObject({ outcome: "matched", trade_no: wx.trade_no });
    const q = await report(h, "/1001", { from: "qq", content: smsContent("QQ钱包", "QQ钱包到账提醒：成功收款0.50元", "com.tencent.mobileqq") });
    expect(q.body.data).toMatchObject({ outcome: "matched", trade_no: qq.trade_no });
    expect((await order(ali.trade_no))?.status).toBe(1);
  });

  test("a message that is not a payment is stored as unmatched, not dropped", async () => {
    const o = await createOrder(h);
    const r = await report(h, "/1001", { from: "x", content: smsContent("支付宝", "转账失败，10.00元已退回") });
    expect(r.body).toMatchObject({ code: 200, data: { outcome: "unmatched" } });
    expect((await order(o.trade_no))?.status).toBe(1);
    expect((await h.gw.store.listReports({ outcome: "unmatched" })).length).toBe(1);
  });

  test("third-account report by amount on the sub_account, signed with the operator secret", async () => {
    await h.gw.store.setSetting("third_account_secret", "third-secret-0123456789");
    const o = await createOrder(h);
    const p = { account: "watcher1", type: 1, sub_account: "Alipay A", amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" };
    const bad = await report(h, "/third-account", p);
    expect(bad.status).toBe(401);
    const r = await report(h, "/third-account", p, { secret: "third-secret-0123456789" });
    expect(r.body).toMatchObject({ code: 200, data: { outcome: "matched", trade_no: o.trade_no } });
    const heart = await report(h, "/third-account/heart", { account: "watcher1", type: 1 }, { secret: "third-secret-0123456789", method: "GET" });
    expect(heart.body.code).toBe(200);
    expect((await h.gw.store.listClients()).find((c) => c.kind === "third-account")?.name).toBe("watcher1");
  });

  test("third-account report by order_id; disabled without a secret", async () => {
    const o = await createOrder(h);
    const p = { account: "w", type: 1, sub_account: "any", amount: 1000, pay_type: "alipay", channel_code: "c", order_id: o.trade_no };
    const off = await report(h, "/third-account", p);
    expect(off.status).toBe(403);
    await h.gw.store.setSetting("third_account_secret", "s3cr3t-s3cr3t-s3cr3t");
    h.gw.forgetSettings();
    const r = await report(h, "/third-account", p, { secret: "s3cr3t-s3cr3t-s3cr3t" });
    expect(r.body.data.outcome).toBe("matched");
  });

  test("heartbeat records the client and marks its accounts online", async () => {
    const r = await report(h, "/1001/heart", { client_name: "phone-1", channel_id: 1, ext_data: '{"v":1}' }, { method: "GET" });
    expect(r.body).toEqual({ code: 200, message: "success", data: { accounts: 1 } });
    expect((await h.gw.store.getChannel(1))?.lastSeenAt).toBe(h.clock.now());
    const [c] = await h.gw.store.listClients();
    expect(c).toMatchObject({ name: "phone-1", channelId: 1, extData: '{"v":1}', lastSeenAt: h.clock.now() });
    expect((await h.gw.store.listReports({ outcome: "accepted" })).length).toBe(1);
  });
});

describe("refused reports get a non-200 code and are stored as rejected", () => {
  const cases: [string, () => Promise<{ status: number; body: { code: number; message: string } }>, number, RegExp][] = [
    ["bad signature", () => report(h, "/1001/pc", { amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" }, { secret: "wrong" }), 401, /signature/],
    ["stale timestamp", () => report(h, "/1001/pc", { amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" }, { timestamp: h.clock.now() - 301 }), 400, /timestamp/],
    ["unknown pid", () => report(h, "/4242/pc", { amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" }), 404, /unknown merchant/],
    ["malformed content", () => report(h, "/1001", { from: "x", content: "{not json" }), 400, /malformed content/],
    ["missing field", () => report(h, "/1001/pc", { pay_type: "alipay", channel_code: "alipay_qr" }), 400, /amount/],
  ];
  for (const [name, send, code, message] of cases) {
    test(name, async () => {
      const o = await createOrder(h);
      const r = await send();
      expect(r.status).toBe(code);
      expect(r.body.code).toBe(code);
      expect(r.body.message).toMatch(message);
      expect((await h.gw.store.listReports({ outcome: "rejected" })).length).toBe(1);
      expect((await order(o.trade_no))?.status).toBe(1);
    });
  }
});
