import { describe, expect, test } from "bun:test";
import vectors from "../fixtures/signing.json";
import { epayStatus, epayV1Notifier, isPlainSuccess, signV1, verifyV1 } from "../../src/protocols/epay-v1/codec.ts";
import type { Merchant, Order } from "../../src/core/types.ts";
import { SECRET } from "../helpers.ts";
import { sdkSign } from "./sdk.ts";

const merchant = { pid: 1001, secret: SECRET } as Merchant;
const order = {
  tradeNo: "20261122103000123456", pid: 1001, outTradeNo: "E-1", family: "epay-v1", payType: "alipay", name: "商品 A+&x=1",
  amount: 150, tradeAmount: 149, status: 2, param: "", apiTradeNo: "", buyer: "", createdAt: 1763807400, expireTime: 1763808300, paidAt: 1763807460, extra: {},
} as unknown as Order;

describe("epay V1 codec", () => {
  test("known-answer vector: sign_type is not signed", () => {
    const v = vectors.md5.find((x) => x.family === "epay-v1")!;
    expect(signV1(v.params, v.secret)).toBe(v.signature);
    expect(verifyV1({ ...v.params, sign: v.signature }, v.secret)).toBe(true);
    expect(verifyV1({ ...v.params, sign_type: "RSA", sign: v.signature }, v.secret)).toBe(true);
    expect(verifyV1({ ...v.params, money: "1.01", sign: v.signature }, v.secret)).toBe(false);
    expect(verifyV1({ ...v.params, sign: v.signature }, "x".repeat(32))).toBe(false);
  });

  test("notification: GET, the V1 fields, TRADE_SUCCESS, verifiable by the SDK rule", () => {
    const params = epayV1Notifier.notificationParams(order);
    // No `param=`: an empty field is left out (a receiver signing every field it got verifies too).
    expect(params).toEqual({ pid: "1001", trade_no: order.tradeNo, out_trade_no: "E-1", type: "alipay", name: "商品 A+&x=1", money: "1.50", trade_status: "TRADE_SUCCESS" });
    const sent = epayV1Notifier.sign(params, { merchant, platformPrivateKey: "", now: 0 });
    expect(sent.sign_type).toBe("MD5");
    expect(sent.sign).toBe(sdkSign(sent));
    expect(epayV1Notifier.method(merchant)).toBe("GET");
    const ret = epayV1Notifier.returnParams(order, { merchant, platformPrivateKey: "", now: 0 });
    expect(ret.sign).toBe(sdkSign(ret));
  });

  test("ack is plain text success", () => {
    for (const yes of ["success", "success\n", "\uFEFFsuccess", "  success "]) expect(isPlainSuccess(yes)).toBe(true);
    for (const no of ["fail", "", "SUCCESS!", "<html>success</html>", "ok"]) expect(isPlainSuccess(no)).toBe(false);
  });

  test("status styles: spec integers, or legacy 1 paid / 0 otherwise", () => {
    const now = 1763807500;
    expect(epayStatus(order, now, "spec")).toBe(2);
    expect(epayStatus(order, now, "legacy")).toBe(1);
    const pending = { ...order, status: 1, paidAt: null } as Order;
    expect(epayStatus(pending, now, "spec")).toBe(1);
    expect(epayStatus(pending, now, "legacy")).toBe(0);
    expect(epayStatus(pending, order.expireTime + 1, "spec")).toBe(4);
    expect(epayStatus(pending, order.expireTime + 1, "legacy")).toBe(0);
  });
});
