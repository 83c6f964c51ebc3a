import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, harness, type Harness, seed } from "../helpers.ts";
import { api, nativeOrder, pay, untypedOrder } from "./support.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

describe("POST /api/order/qrcode", () => {
  test("the account's code, an image URL on the gateway and the exact amount to pay", async () => {
    await nativeOrder(h, { out_trade_no: "C0" }); // takes 10.00, so the next order pays 9.99
    const o = await nativeOrder(h);
    const { res, body } = await api(h, "qrcode", { order_id: o.trade_no });
    expect(res.status).toBe(200);
    expect(body).toEqual({
      type: "alipay", qrcode_data: "https://qr.alipay.com/fkx0001",
      qrcode: `http://127.0.0.1:8080/qrcode?text=${encodeURIComponent("https://qr.alipay.com/fkx0001")}&format=png`,
      scheme: "", uri: "https://qr.alipay.com/fkx0001", content: "", actual_amount: "9.99", actual_account: "Alipay A", actual_account_type: "支付宝",
    });
    const img = await h.app.handle(new Request(body.qrcode.replace("http://127.0.0.1:8080", "http://localhost")));
    expect(img.headers.get("content-type")).toBe("image/png");
  });

  test("a non-web code gives no uri; the scheme comes from the account", async () => {
    await h.gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wx", name: "WX", qrcode: "wxp://f2f0abc", scheme: "weixin://dl/scan", now: h.clock.now() });
    const o = await nativeOrder(h, { pay_type: "wxpay" });
    const { body } = await api(h, "qrcode", { order_id: o.trade_no });
    expect(body).toMatchObject({ type: "wxpay", qrcode_data: "wxp://f2f0abc", uri: "", scheme: "weixin://dl/scan", actual_account_type: "微信支付" });
  });

  test("order_id only: out_order_id + pid is refused", async () => {
    await nativeOrder(h);
    const r = await api(h, "qrcode", { out_order_id: "C1", pid: 1001 });
    expect(r.res.status).toBe(400);
    expect(r.body).toEqual({ code: 400, message: "缺少参数 order_id", data: null });
    expect((await api(h, "qrcode", { order_id: "20990101000000000000" })).res.status).toBe(404);
  });

  test("an order that is no longer payable, or has no pay type yet, is a 409", async () => {
    const paid = await nativeOrder(h);
    await pay(h, paid.trade_no);
    let r = await api(h, "qrcode", { order_id: paid.trade_no });
    expect(r.res.status).toBe(409);
    expect(r.body).toEqual({ code: 409, message: "订单已支付", data: null });
    const untyped = await untypedOrder(h);
    r = await api(h, "qrcode", { order_id: untyped.tradeNo });
    expect(r.body).toEqual({ code: 409, message: "请先选择支付方式", data: null });
    h.clock.advance(901);
    expect((await api(h, "qrcode", { order_id: untyped.tradeNo })).body.message).toBe("订单已超时");
  });
});

describe("POST /api/order/pay-types", () => {
  test("pay types of enabled accounts (own or shared) whose limits take the amount", async () => {
    await h.gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wx", name: "WX", qrcode: "wxp://a", now: h.clock.now() });
    await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx2", name: "WX2", qrcode: "wxp://b", now: h.clock.now() });
    await h.gw.store.addChannel({ pid: 1001, payType: "qqpay", code: "qq", name: "QQ", qrcode: "q", maxAmount: 500, now: h.clock.now() });
    await h.gw.store.addChannel({ pid: 2002, payType: "unionpay", code: "u", name: "other merchant", qrcode: "u", now: h.clock.now() });
    const off = await h.gw.store.addChannel({ pid: 0, payType: "jdpay", code: "jd", name: "JD", qrcode: "j", now: h.clock.now() });
    await h.gw.store.updateChannel(off.id, { enabled: false });
    const o = await untypedOrder(h, 1000);
    const { res, body } = await api(h, "pay-types", { order_id: o.tradeNo });
    expect(res.status).toBe(200);
    expect(body).toEqual({
      code: 200, message: "success",
      data: [
        { pay_type: "alipay", pay_type_text: "支付宝", pay_type_logo: `${BASE}/assets/pay-types/alipay.svg` },
        { pay_type: "wxpay", pay_type_text: "微信支付", pay_type_logo: `${BASE}/assets/pay-types/wxpay.svg` },
      ],
    });
    const small = await untypedOrder(h, 300, "U2");
    expect((await api(h, "pay-types", { order_id: small.tradeNo })).body.data.map((x: any) => x.pay_type)).toEqual(["alipay", "wxpay", "qqpay"]);
  });

  test("errors: unknown order, order_id only, ended order", async () => {
    expect((await api(h, "pay-types", { order_id: "20990101000000000000" })).res.status).toBe(404);
    const o = await untypedOrder(h);
    expect((await api(h, "pay-types", { out_order_id: "U1", pid: 1001 })).res.status).toBe(400);
    h.clock.advance(901);
    const r = await api(h, "pay-types", { order_id: o.tradeNo });
    expect(r.res.status).toBe(409);
    expect(r.body).toEqual({ code: 409, message: "订单已超时", data: null });
  });
});

describe("POST /api/order/pay-type", () => {
  test("the pick allocates account and trade_amount; info then shows it and qrcode works", async () => {
    const o = await untypedOrder(h);
    expect((await api(h, "info", { order_id: o.tradeNo })).body).toMatchObject({ pay_type: "", pay_type_text: "", status: 1 });
    const { res, body } = await api(h, "pay-type", { order_id: o.tradeNo, pay_type: "alipay" });
    expect(res.status).toBe(200);
    expect(body).toEqual({ code: 200, message: "success", data: { order_id: o.tradeNo, pay_type: "alipay", pay_type_text: "支付宝", amount: 1000, trade_amount: 1000 } });
    expect((await api(h, "info", { order_id: o.tradeNo })).body).toMatchObject({ pay_type: "alipay", trade_amount: 1000 });
    expect((await api(h, "qrcode", { order_id: o.tradeNo })).body.actual_amount).toBe("10.00");
    // A double click picks the same again: answered as done, not as an error.
    expect((await api(h, "pay-type", { order_id: o.tradeNo, pay_type: "alipay" })).res.status).toBe(200);
    const other = await api(h, "pay-type", { order_id: o.tradeNo, pay_type: "wxpay" });
    expect(other.body).toEqual({ code: 409, message: "订单已选择支付方式，不能更改", data: null });
  });

  test("no account for the pick: 422 with the reason, and the order stays untyped", async () => {
    const o = await untypedOrder(h);
    const r = await api(h, "pay-type", { order_id: o.tradeNo, pay_type: "wxpay" });
    expect(r.res.status).toBe(422);
    expect(r.body.code).toBe(422);
    expect(r.body.message).toContain("no enabled account for pay type wxpay");
    expect((await h.gw.store.getOrder(o.tradeNo))!.payType).toBe("");
  });

  test("bad input: missing or malformed pay_type, lookup by out_order_id, unknown and ended orders", async () => {
    const o = await untypedOrder(h);
    const cases: [unknown, number][] = [
      [{ order_id: o.tradeNo }, 400],
      [{ order_id: o.tradeNo, pay_type: "Ali Pay!" }, 400],
      [{ out_order_id: "U1", pid: 1001, pay_type: "alipay" }, 400],
      [{ order_id: "20990101000000000000", pay_type: "alipay" }, 404],
    ];
    for (const [body, code] of cases) {
      const r = await api(h, "pay-type", body);
      expect([r.res.status, r.body.code, r.body.data]).toEqual([code, code, null]);
    }
    h.clock.advance(901);
    expect((await api(h, "pay-type", { order_id: o.tradeNo, pay_type: "alipay" })).body).toEqual({ code: 409, message: "订单已超时", data: null });
  });
});
