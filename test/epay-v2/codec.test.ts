import { describe, expect, test } from "bun:test";
import vectors from "../fixtures/signing.json";
import { chooseCreatePay, epayV2Notifier, signV2, v2PaidFields } from "../../src/protocols/epay-v2/codec.ts";
import type { ChannelAccount, Merchant, Order } from "../../src/core/types.ts";
import { newMerchantKeys, sdkVerify } from "./sdk.ts";
import { createPrivateKey } from "node:crypto";

const order = {
  tradeNo: "20261122103000654321", pid: 1001, outTradeNo: "V2-1", family: "epay-v2", payType: "alipay", name: "测试 商品+&x",
  amount: 150, tradeAmount: 150, status: 2, param: "", apiTradeNo: "", buyer: "", clientip: "127.0.0.1", createdAt: 1763807400, expireTime: 1763808300, paidAt: 1763807460, extra: {},
} as unknown as Order;
const account = { qrcode: "https://qr.alipay.com/fkx0001", scheme: "alipays://platformapi/startapp?x=1" } as ChannelAccount;

describe("epay V2 codec", () => {
  test("known-answer vector: the create response is signed over code too (msg empty is skipped)", () => {
    const c = vectors.rsa.cases[1]!;
    const { timestamp, ...fields } = c.params as unknown as Record<string, string | number>;
    const signed = signV2(fields, vectors.rsa.private_key_base64, Number(timestamp));
    expect(signed.sign).toBe(c.signature);
    expect(signed.sign_type).toBe("RSA");
    expect(sdkVerify(signed, vectors.rsa.public_key_base64, Number(timestamp))).toBe(true);
    expect(sdkVerify({ ...signed, code: 1 }, vectors.rsa.public_key_base64, Number(timestamp))).toBe(false);
    expect(sdkVerify(signed, vectors.rsa.public_key_base64, Number(timestamp) + 301)).toBe(false);
  });

  test("notification: unsigned fields stored, a fresh timestamp and signature at each attempt", () => {
    const keys = newMerchantKeys(); // stands in for the platform pair here
    const pem = createPrivateKey({ key: Buffer.from(keys.merchantPrivate, "base64"), format: "der", type: "pkcs8" }).export({ type: "pkcs8", format: "pem" }).toString();
    const params = epayV2Notifier.notificationParams(order);
    expect(params).toMatchObject({ pid: "1001", trade_no: order.tradeNo, trade_status: "TRADE_SUCCESS", money: "1.50", type: "alipay" });
    expect(params.timestamp).toBeUndefined();
    const ctx = (now: number) => ({ merchant: {} as Merchant, platformPrivateKey: pem, now });
    const first = epayV2Notifier.sign(params, ctx(1763807460));
    const later = epayV2Notifier.sign(params, ctx(1763809000));
    expect(first.timestamp).toBe("1763807460");
    expect(later.timestamp).toBe("1763809000");
    expect(sdkVerify(first, keys.merchantPublic, 1763807460)).toBe(true);
    expect(sdkVerify(later, keys.merchantPublic, 1763809000)).toBe(true);
    expect(sdkVerify(first, keys.merchantPublic, 1763809000)).toBe(false);
    expect(epayV2Notifier.method({} as Merchant)).toBe("GET");
    expect(epayV2Notifier.isAcknowledged("success")).toBe(true);
    expect(epayV2Notifier.isAcknowledged("fail success")).toBe(false);
    expect(sdkVerify(epayV2Notifier.returnParams(order, ctx(1763807460)), keys.merchantPublic, 1763807460)).toBe(true);
    expect(() => epayV2Notifier.sign(params, { ...ctx(1), platformPrivateKey: "" })).toThrow("platform private key");
  });

  test("pay_type / pay_info from method and device", () => {
    const cashier = "http://x/pay/1";
    expect(chooseCreatePay("web", "pc", order, account, cashier)).toEqual({ ok: true, pay_type: "qrcode", pay_info: account.qrcode });
    expect(chooseCreatePay("", "", order, account, cashier)).toMatchObject({ pay_type: "qrcode" });
    expect(chooseCreatePay("web", "mobile", order, account, cashier)).toEqual({ ok: true, pay_type: "urlscheme", pay_info: account.scheme });
    expect(chooseCreatePay("app", "pc", order, account, cashier)).toMatchObject({ pay_type: "urlscheme" });
    expect(chooseCreatePay("jump", "pc", order, account, cashier)).toEqual({ ok: true, pay_type: "jump", pay_info: cashier });
    expect(chooseCreatePay("jsapi", "wechat", order, account, cashier)).toMatchObject({ pay_type: "jump" });
    const adjusted = { ...order, tradeAmount: 149 } as Order;
    expect(chooseCreatePay("web", "pc", adjusted, account, cashier)).toEqual({ ok: true, pay_type: "jump", pay_info: cashier });
    expect(chooseCreatePay("app", "mobile", adjusted, account, cashier)).toMatchObject({ pay_type: "jump" });
    expect(v2PaidFields({ ...order, paidAt: null } as Order)).not.toHaveProperty("endtime");
  });
});
