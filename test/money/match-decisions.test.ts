// Issue 21: every decision of the pure matching rule with its exact reason (the reason is what the
// operator and the phone see), over a fake view so that inconsistent data can be shown too.
import { describe, expect, test } from "bun:test";
import { accountFits, isPayable, matchPayment, type MatchView, type PaymentClaim, whyNotPayable } from "../../src/core/report-match.ts";
import type { Order } from "../../src/core/types.ts";
import { account, claim, NOW, order, view } from "../report/fake-view.ts";

const W = 600;
/** Decisions with their English text (core/reasons.ts); a match's "paid (...)" note as `note`. */
function decide(c: PaymentClaim, v: MatchView) {
  const d = matchPayment(c, v, NOW, W);
  if (d.kind !== "matched") return { ...d, reason: d.reason.text };
  const { reason, ...rest } = d;
  return reason.text === "paid" ? rest : { ...rest, note: reason.text.slice("paid (".length, -1) };
}

describe("isPayable and whyNotPayable", () => {
  test("pending or timed out up to the window's last second, with a payable amount", () => {
    expect(isPayable(order("A"), NOW, W)).toBe(true);
    expect(isPayable(order("A", { status: 4, expireTime: NOW - W }), NOW, W)).toBe(true);
    expect(isPayable(order("A", { status: 1, expireTime: NOW - W }), NOW, W)).toBe(true);
    expect(isPayable(order("A", { status: 4, expireTime: NOW - W - 1 }), NOW, W)).toBe(false);
    expect(isPayable(order("A", { tradeAmount: null }), NOW, W)).toBe(false);
    for (const status of [2, 3, 5] as const) expect(isPayable(order("A", { status }), NOW, W)).toBe(false);
  });

  test("each reason", () => {
    const why = (o: Partial<Order>) => whyNotPayable(order("A", o), NOW, W).text;
    expect(why({ status: 2 })).toBe("order A is already paid; nothing changed");
    expect(why({ status: 3 })).toBe("order A is closed; nothing paid");
    expect(why({ status: 5 })).toBe("order A failed at creation; nothing paid");
    expect(why({ tradeAmount: null })).toBe("order A has no pay type yet; nothing paid");
    expect(why({ status: 4, expireTime: NOW - W - 1 })).toBe("order A timed out more than 600 s ago; nothing paid");
    expect(why({ status: 4, expireTime: NOW - W })).toBe("order A is not payable");
    expect(why({ status: 4, expireTime: NOW + W + 1 })).toBe("order A is not payable");
  });
});

describe("accountFits", () => {
  const a = account(7, { payType: "alipay", code: "c7", name: "Shop 7" });
  test("pay type, account id, name/code/id, channel code", () => {
    expect(accountFits(a, {})).toBe(true);
    expect(accountFits(a, { payType: "wxpay" })).toBe(false);
    expect(accountFits(a, { payType: "alipay" })).toBe(true);
    expect(accountFits(a, { accountId: 7, channelCode: "other" })).toBe(true); // the id outranks the code
    expect(accountFits(a, { accountId: 8 })).toBe(false);
    expect(accountFits(a, { accountId: null, channelCode: "c7" })).toBe(true);
    for (const named of ["Shop 7", "c7", "7"]) expect(accountFits(a, { named, channelCode: "ignored" })).toBe(true);
    expect(accountFits(a, { named: "Shop 8" })).toBe(false);
    expect(accountFits(a, { channelCode: "c8" })).toBe(false);
    expect(accountFits(a, { payType: "wxpay", accountId: 7 })).toBe(false);
  });
});

describe("matchPayment: reasons name what the claim said", () => {
  const v = view([account(1, { code: "qr" }), account(2, { code: "qr2", name: "second" })], []);
  test("account id, sub_account or channel code, in that order of precedence", () => {
    expect(decide(claim({ accountId: 9 }), v)).toEqual({ kind: "unmatched", reason: "no account matches amount 1000, pay_type alipay, account 9" });
    expect(decide(claim({ pid: null, subAccount: "nine", channelCode: "qr" }), v)).toEqual({ kind: "unmatched", reason: "no account matches amount 1000, pay_type alipay, sub_account nine" });
    expect(decide(claim({ channelCode: "zz" }), v)).toEqual({ kind: "unmatched", reason: "no account matches amount 1000, pay_type alipay, channel_code zz" });
    expect(decide(claim({ payType: "wxpay" }), v)).toEqual({ kind: "unmatched", reason: "no account matches amount 1000, pay_type wxpay" });
    expect(decide(claim(), v)).toEqual({ kind: "unmatched", reason: "no pending order matches amount 1000, pay_type alipay" });
  });
});

describe("matchPayment by amount", () => {
  test("an order of another pay type never matches, even on a matching account", () => {
    const v = view([account(1)], [order("A", { payType: "wxpay" })]);
    expect(decide(claim(), v)).toEqual({ kind: "unmatched", reason: "no pending order matches amount 1000, pay_type alipay" });
  });

  test("the reason names the most recent order that can no longer be paid", () => {
    const v = view([account(1)], [order("OLD", { status: 3, createdAt: NOW - 500 }), order("NEW", { status: 2, createdAt: NOW - 50 }), order("MID", { status: 3, createdAt: NOW - 200 })]);
    expect(decide(claim(), v)).toMatchObject({ kind: "unmatched", reason: "order NEW is already paid; nothing changed", order: { tradeNo: "NEW" } });
  });

  test("two payable orders are ambiguous and both are named", () => {
    const v = view([account(1), account(2)], [order("A"), order("B", { accountId: 2 })]);
    expect(decide(claim(), v)).toEqual({ kind: "ambiguous", reason: "2 pending orders match amount 1000, pay_type alipay; nothing paid (A, B)", tradeNos: ["A", "B"] });
  });

  test("on a shared account another merchant's order is neither paid nor named", () => {
    const v = view([account(1)], [order("B", { pid: 2002 })]);
    expect(decide(claim(), v)).toEqual({ kind: "unmatched", reason: "the order for amount 1000, pay_type alipay belongs to another merchant (a shared account); nothing paid" });
    expect(decide(claim({ pid: null }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "B" } }); // the operator's watcher speaks for all
  });
});

describe("matchPayment by named order", () => {
  test("an id naming the same order both ways is one order", () => {
    const v = view([account(1)], [order("A", { outTradeNo: "A" })]);
    expect(decide(claim({ orderId: "A" }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "A" } });
    expect(decide(claim({ orderId: "A", outOrderId: "A" }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "A" } });
  });

  test("an id naming two orders is ambiguous: two merchants' out_trade_no, or one's trade_no and another order's out_trade_no", () => {
    const two = view([account(1)], [order("A", { outTradeNo: "X" }), order("B", { pid: 2002, outTradeNo: "X" })]);
    expect(decide(claim({ pid: null, outOrderId: "X" }), two)).toEqual({ kind: "ambiguous", reason: "out_order_id X names several orders (A, B)", tradeNos: ["A", "B"] });
    const crossed = view([account(1)], [order("A"), order("B", { outTradeNo: "A" })]);
    expect(decide(claim({ orderId: "A" }), crossed)).toEqual({ kind: "ambiguous", reason: "order_id A names several orders (A, B)", tradeNos: ["A", "B"] });
  });

  test("the named order must agree: amount, pay type, payable, account", () => {
    const v = view([account(1), account(2, { code: "other" })], [order("A"), order("N", { tradeAmount: null, payType: "" }), order("W", { payType: "wxpay" }), order("C", { status: 3 }), order("O", { accountId: 2 })]);
    expect(decide(claim({ orderId: "A", amount: 999 }), v)).toEqual({ kind: "unmatched", reason: "amount 999 differs from order A (1000)", order: expect.objectContaining({ tradeNo: "A" }) });
    expect(decide(claim({ orderId: "N" }), v)).toMatchObject({ kind: "unmatched", reason: "amount 1000 differs from order N (none)" });
    expect(decide(claim({ orderId: "W" }), v)).toEqual({ kind: "unmatched", reason: "pay_type alipay differs from order W (wxpay)", order: expect.objectContaining({ tradeNo: "W" }) });
    expect(decide(claim({ orderId: "C" }), v)).toEqual({ kind: "unmatched", reason: "order C is closed; nothing paid", order: expect.objectContaining({ tradeNo: "C" }) });
    expect(decide(claim({ orderId: "O", channelCode: "qr" }), v)).toMatchObject({ kind: "unmatched", reason: "order O is not on an account matching amount 1000, pay_type alipay, channel_code qr" });
    expect(decide(claim({ orderId: "A", outOrderId: "out-C" }), v)).toEqual({ kind: "unmatched", reason: "order_id and out_order_id name different orders" });
  });

  test("ids that name nothing: each is noted, and the amount decides", () => {
    const v = view([account(1)], [order("A")]);
    expect(decide(claim({ orderId: "P", outOrderId: "Q" }), v)).toMatchObject({
      kind: "matched", order: { tradeNo: "A" }, note: "order_id P names no order of this merchant; out_order_id Q names no order of this merchant; matched by amount",
    });
    expect(decide(claim({ pid: null, outOrderId: "Q", amount: 5 }), v)).toEqual({ kind: "unmatched", reason: "out_order_id Q names no order; no pending order matches amount 5, pay_type alipay" });
    expect(decide(claim({ outOrderId: "Q", amount: 5 }), v)).toEqual({ kind: "unmatched", reason: "out_order_id Q names no order of this merchant; no pending order matches amount 5, pay_type alipay" });
  });

  test("one id names an order and the other nothing: the named order decides", () => {
    const v = view([account(1)], [order("A")]);
    expect(decide(claim({ orderId: "A", outOrderId: "nothing" }), v)).toEqual({ kind: "matched", order: expect.objectContaining({ tradeNo: "A" }) });
  });
});
