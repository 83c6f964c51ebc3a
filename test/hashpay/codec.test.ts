import { describe, expect, test } from "bun:test";
import vectors from "../fixtures/signing.json";
import { hashFieldProblem, hashPayType, hashpayNotifier, hashStatus, signHash, verifyHash } from "../../src/protocols/hashpay/codec.ts";
import type { Merchant, Order } from "../../src/core/types.ts";
import { SECRET } from "../helpers.ts";
import { xhHash } from "./sdk.ts";

const merchant = { pid: 1001, secret: SECRET } as Merchant;
const order = {
  tradeNo: "20261122103000111111", pid: 1001, outTradeNo: "1763800000", family: "hashpay", payType: "wxpay", name: "耐克球鞋",
  amount: 10, tradeAmount: 10, status: 2, param: "", apiTradeNo: "", buyer: "", createdAt: 1763807400, expireTime: 1763808300, paidAt: 1763807460,
  extra: { plugins: "my-plugins-id", attach: "备注 a&b" },
} as unknown as Order;

describe("hash protocol codec", () => {
  test("known-answer vector with numbers, as the vendor demo sends them", () => {
    const v = vectors.md5.find((x) => x.family === "hashpay")!;
    expect(signHash(v.params, v.secret)).toBe(v.signature);
    expect(verifyHash({ ...v.params, hash: v.signature }, v.secret)).toBe(true);
    expect(verifyHash({ ...v.params, total_fee: "0.2", hash: v.signature }, v.secret)).toBe(false);
    expect(verifyHash({ ...v.params, hash: v.signature }, "k".repeat(32))).toBe(false);
  });

  test("pay type: payment, else WAP/JSAPI means wxpay, else none", () => {
    expect(hashPayType({ payment: "wechat" })).toBe("wxpay");
    expect(hashPayType({ payment: "alipay", type: "WAP" })).toBe("alipay");
    expect(hashPayType({ type: "WAP" })).toBe("wxpay");
    expect(hashPayType({ type: "JSAPI" })).toBe("wxpay");
    expect(hashPayType({})).toBe("");
  });

  test("field limits: version 1.1, title <= 128, wap_name <= 32 characters, notify_url without &", () => {
    const ok = { version: "1.1", title: "鞋".repeat(128), notify_url: "http://x/n", wap_name: "站".repeat(32) };
    expect(hashFieldProblem(ok)).toBeNull();
    expect(hashFieldProblem({ ...ok, version: "1.0" })).toBe("version must be 1.1");
    expect(hashFieldProblem({ ...ok, title: "鞋".repeat(129) })).toContain("title");
    expect(hashFieldProblem({ ...ok, title: "😀".repeat(128) })).toBeNull();
    expect(hashFieldProblem({ ...ok, wap_name: "站".repeat(33) })).toContain("wap_name");
    expect(hashFieldProblem({ ...ok, notify_url: "http://x/n?a=1&b=2" })).toContain("&");
    expect(hashFieldProblem({ ...ok, type: "WAP", wap_url: "x.com", wap_name: "" })).toContain("WAP");
    expect(hashFieldProblem({ ...ok, type: "JSAPI" })).toContain("wap_url");
  });

  test("notification: POST form, status OD, plugins and attach only when given, verifiable by the demo", () => {
    const params = hashpayNotifier.notificationParams(order);
    expect(params).toMatchObject({ trade_order_id: "1763800000", total_fee: "0.10", open_order_id: order.tradeNo, transaction_id: order.tradeNo, order_title: "耐克球鞋", status: "OD", plugins: "my-plugins-id", attach: "备注 a&b", appid: "1001", time: "1763807460" });
    expect(params.nonce_str).toMatch(/^[0-9a-f]{16}$/);
    const plain = hashpayNotifier.notificationParams({ ...order, extra: {} } as Order);
    expect("plugins" in plain || "attach" in plain).toBe(false);
    const sent = hashpayNotifier.sign(params, { merchant, platformPrivateKey: "", now: 0 });
    expect(sent.hash).toBe(xhHash(sent));
    expect(hashpayNotifier.method(merchant)).toBe("POST");
    for (const yes of ["success", "成功", "ok", '{"result":"success"}']) expect(hashpayNotifier.isAcknowledged(yes)).toBe(true);
    for (const no of ["fail", "", "FAIL"]) expect(hashpayNotifier.isAcknowledged(no)).toBe(false);
    const ret = hashpayNotifier.returnParams(order, { merchant, platformPrivateKey: "", now: 0 });
    expect(ret.hash).toBe(xhHash(ret));
  });

  test("status letters: OD paid, WP waiting, CD closed or timed out", () => {
    expect(hashStatus(order, 0)).toBe("OD");
    expect(hashStatus({ ...order, status: 1 } as Order, order.expireTime - 1)).toBe("WP");
    expect(hashStatus({ ...order, status: 1 } as Order, order.expireTime)).toBe("CD");
    expect(hashStatus({ ...order, status: 3 } as Order, 0)).toBe("CD");
  });
});
