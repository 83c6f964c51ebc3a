// epay V1 submit.php without `type` (what v2board and Xboard send): the order waits for the payer's
// pick on the cashier, as V2 submit does; the merchant's queries answer before and after; links
// replayed, pages reloaded and picks repeated never make a second order. mapi.php still needs a
// type. V1 requests signed with empty fields kept as `k=` verify as well.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, type Harness, postJson, SECRET, signed } from "../helpers.ts";
import { call, sdkSign, v1Params } from "../epay-v1/sdk.ts";
import { apiOrder, cashier, panelGateway } from "./flow.ts";
import { md5 } from "./php.ts";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";

let h: Harness;
beforeEach(async () => {
  h = await panelGateway();
});
afterEach(() => h.close());

/** V1 parameters without `type`, signed over exactly what is sent. */
function untyped(o: Record<string, string> = {}): Record<string, string> {
  const { type: _t, sign: _s, sign_type: _st, ...rest } = v1Params(o);
  return { ...rest, sign: sdkSign(rest), sign_type: "MD5" };
}

async function nativeStatus(outTradeNo: string) {
  return (await postJson(h, "/xpay/order/status", signed({ pid: 1001, out_order_id: outTradeNo }))).body;
}

describe("submit.php without type", () => {
  test("the payer picks on the cashier; queries answer before and after; one order whatever is repeated", async () => {
    const params = untyped({ out_trade_no: "PICK-1", money: "10" });
    const first = await call(h, "GET", "/xpay/epay/submit.php", params);
    expect(first.status).toBe(302);
    const location = first.headers.get("location")!;
    const tradeNo = location.split("/").pop()!;
    expect(await h.gw.store.getOrder(tradeNo)).toMatchObject({ family: "epay-v1", payType: "", accountId: null, tradeAmount: null, amount: 1000, status: 1 });

    // Before the pick: api.php, the native status and the cashier's info all say pending.
    expect(await apiOrder(h, "PICK-1")).toMatchObject({ code: 1, trade_no: tradeNo, status: 1, type: "", money: "10.00", trade_amount: "" });
    expect((await nativeStatus("PICK-1")).data).toMatchObject({ status: 1 });
    expect((await cashier(h, "info", { order_id: tradeNo })).body).toMatchObject({ status: 1, pay_type: "", pay_type_logo: "" });
    const page = await h.app.handle(new Request(location));
    expect(page.status).toBe(200);

    // The choice: names and the gateway's own icons, which it serves.
    const types = (await cashier(h, "pay-types", { order_id: tradeNo })).body.data;
    expect(types).toEqual([
      { pay_type: "alipay", pay_type_text: "支付宝", pay_type_logo: `${BASE}/assets/pay-types/alipay.svg` },
      { pay_type: "wxpay", pay_type_text: "微信支付", pay_type_logo: `${BASE}/assets/pay-types/wxpay.svg` },
    ]);
    for (const t of types) {
      const icon = await h.app.handle(new Request(t.pay_type_logo));
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toStartWith("image/svg+xml");
      expect(await icon.text()).toStartWith("<svg");
    }

    // Replayed link (GET and POST) and a reload before the pick: the same order.
    expect((await call(h, "GET", "/xpay/epay/submit.php", params)).headers.get("location")).toBe(location);
    expect((await call(h, "POST", "/xpay/epay/submit.php", params)).headers.get("location")).toBe(location);

    expect((await cashier(h, "pay-type", { order_id: tradeNo, pay_type: "alipay" })).body.data).toMatchObject({ pay_type: "alipay", trade_amount: 1000 });
    expect((await cashier(h, "pay-type", { order_id: tradeNo, pay_type: "alipay" })).status).toBe(200);
    expect((await cashier(h, "pay-type", { order_id: tradeNo, pay_type: "wxpay" })).status).toBe(409);
    expect((await call(h, "GET", "/xpay/epay/submit.php", params)).headers.get("location")).toBe(location);
    expect((await h.gw.store.listOrders({ pid: 1001, limit: 10, offset: 0 })).length).toBe(1);

    // After the pick and after the payment.
    expect(await apiOrder(h, "PICK-1")).toMatchObject({ code: 1, status: 1, type: "alipay", trade_amount: "10.00" });
    expect((await cashier(h, "info", { order_id: tradeNo })).body).toMatchObject({ pay_type: "alipay", pay_type_logo: `${BASE}/assets/pay-types/alipay.svg` });
    expect((await settleOperatorPayment(h.gw, tradeNo))?.outcome).toBe("matched");
    expect(await apiOrder(h, "PICK-1")).toMatchObject({ code: 1, status: 2, type: "alipay" });
    expect((await nativeStatus("PICK-1")).data).toMatchObject({ status: 2 });
  });

  test("the signature covers exactly what was sent: a type added to a link signed without one is refused", async () => {
    const params = untyped({ out_trade_no: "PICK-2" });
    const res = await call(h, "GET", "/xpay/epay/submit.php", { ...params, type: "wxpay" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("signature mismatch");
  });

  test("mapi.php without type stays an error in its own shape", async () => {
    const res = (await (await call(h, "POST", "/xpay/epay/mapi.php", untyped({ out_trade_no: "PICK-3" }))).json()) as any;
    expect(res).toEqual({ code: -1, msg: "missing parameter: type" });
  });

  test("an icon that does not exist is a 404, and an unknown pay type gets the neutral icon", async () => {
    expect((await h.app.handle(new Request(`${BASE}/assets/pay-types/evil.svg`))).status).toBe(404);
    expect((await h.app.handle(new Request(`${BASE}/assets/pay-types/other.svg`))).status).toBe(200);
    await h.gw.store.addChannel({ pid: 0, payType: "usdt", code: "u", name: "U", qrcode: "u", now: h.clock.now() });
    const params = untyped({ out_trade_no: "PICK-4" });
    const tradeNo = (await call(h, "GET", "/xpay/epay/submit.php", params)).headers.get("location")!.split("/").pop()!;
    const types = (await cashier(h, "pay-types", { order_id: tradeNo })).body.data;
    expect(types.find((t: any) => t.pay_type === "usdt")).toEqual({ pay_type: "usdt", pay_type_text: "usdt", pay_type_logo: `${BASE}/assets/pay-types/other.svg` });
  });
});

describe("V1 requests signed with empty fields kept as `k=` (SSPanel's mapi path)", () => {
  // Written out here (not src/'s signer): ksort, every value kept, `k=v&...`, key appended.
  const keptEmpty = (o: Record<string, string>, key = SECRET) => {
    const p: Record<string, string> = { pid: "1001", type: "alipay", out_trade_no: "KEPT-1", name: "VIP", money: "10.00", notify_url: "http://127.0.0.1/n", clientip: "", param: "", ...o };
    const text = Object.keys(p).sort().map((k) => `${k}=${p[k]}`).join("&");
    return { ...p, sign: md5(text + key), sign_type: "MD5" };
  };

  test("mapi.php and submit.php accept them; code is the integer 1 with payurl", async () => {
    const made = (await (await call(h, "POST", "/xpay/epay/mapi.php", keptEmpty({}))).json()) as any;
    expect(made).toMatchObject({ code: 1, payurl: `${BASE}/pay/${made.trade_no}` });
    const res = await call(h, "GET", "/xpay/epay/submit.php", keptEmpty({ out_trade_no: "KEPT-2" }));
    expect(res.status).toBe(302);
  });

  test("tampered values or another key are still refused", async () => {
    const tampered = { ...keptEmpty({ out_trade_no: "KEPT-3" }), money: "0.01" };
    expect(((await (await call(h, "POST", "/xpay/epay/mapi.php", tampered)).json()) as any).code).toBe(-1);
    const filled = { ...keptEmpty({ out_trade_no: "KEPT-4" }), clientip: "1.2.3.4" }; // an empty value filled in later
    expect(((await (await call(h, "POST", "/xpay/epay/mapi.php", filled)).json()) as any).code).toBe(-1);
    const otherKey = keptEmpty({ out_trade_no: "KEPT-5" }, "e".repeat(32));
    expect((await call(h, "GET", "/xpay/epay/submit.php", otherKey)).status).toBe(400);
  });
});
