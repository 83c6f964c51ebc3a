// The pure matching rule over a fake view: no database, every branch.
import { describe, expect, test } from "bun:test";
import { matchPayment, type MatchView, type PaymentClaim } from "../../src/core/report-match.ts";
import { account, claim, NOW, order, view } from "./fake-view.ts";

/** Decisions with their reason's English text (core/reasons.ts words it from the code). */
function decide(c: PaymentClaim, v: MatchView) {
  const d = matchPayment(c, v, NOW, 600);
  if (d.kind !== "matched") return { ...d, reason: d.reason.text };
  return d.reason.text === "paid" ? { ...d, reason: "paid" } : { ...d, note: d.reason.text.slice("paid (".length, -1) };
}

describe("matchPayment", () => {
  test("exactly one payable order is matched", () => {
    expect(decide(claim(), view([account(1)], [order("A")]))).toMatchObject({ kind: "matched", order: { tradeNo: "A" } });
  });
  test("timed out inside the window still matches; outside does not", () => {
    expect(decide(claim(), view([account(1)], [order("A", { status: 4, expireTime: NOW - 599 })])).kind).toBe("matched");
    expect(decide(claim(), view([account(1)], [order("A", { status: 4, expireTime: NOW - 601 })]))).toMatchObject({ kind: "unmatched", reason: expect.stringMatching(/timed out more than 600 s/) });
  });
  test("two payable orders are ambiguous; the channel code or account id narrows", () => {
    const v = view([account(1, { code: "x" }), account(2, { code: "y" })], [order("A"), order("B", { accountId: 2 })]);
    expect(decide(claim(), v)).toMatchObject({ kind: "ambiguous", tradeNos: ["A", "B"] });
    expect(decide(claim({ channelCode: "y" }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "B" } });
    expect(decide(claim({ accountId: 1 }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "A" } });
    expect(decide(claim({ channelCode: "z" }), v)).toMatchObject({ kind: "unmatched", reason: expect.stringMatching(/no account matches/) });
  });
  test("pay type and merchant must agree", () => {
    const v = view([account(1), account(2, { pid: 2002 })], [order("A"), order("B", { accountId: 2, pid: 2002 })]);
    expect(decide(claim({ payType: "wxpay" }), v).kind).toBe("unmatched");
    expect(decide(claim(), v)).toMatchObject({ kind: "matched", order: { tradeNo: "A" } });
  });
  test("closed and paid orders are named in the reason and never paid", () => {
    expect(decide(claim(), view([account(1)], [order("A", { status: 3 })]))).toMatchObject({ kind: "unmatched", reason: expect.stringMatching(/A is closed/) });
    expect(decide(claim(), view([account(1)], [order("A", { status: 2 })]))).toMatchObject({ kind: "unmatched", reason: expect.stringMatching(/already paid/) });
  });
  test("named orders: ids must agree with each other, the amount and the account", () => {
    const v = view([account(1), account(2, { code: "other" })], [order("A"), order("B", { accountId: 2, tradeAmount: 999 })]);
    expect(decide(claim({ orderId: "A", outOrderId: "out-A" }), v).kind).toBe("matched");
    expect(decide(claim({ orderId: "A", outOrderId: "out-B" }), v)).toMatchObject({ reason: "order_id and out_order_id name different orders" });
    expect(decide(claim({ outOrderId: "out-B", amount: 999, channelCode: "qr" }), v)).toMatchObject({ kind: "unmatched", reason: expect.stringMatching(/not on an account/) });
    // An id that names nothing falls back to the amount, and says so.
    expect(decide(claim({ orderId: "Z" }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "A" }, note: "order_id Z names no order of this merchant; matched by amount" });
    expect(decide(claim({ orderId: "Z", amount: 5 }), v)).toMatchObject({ kind: "unmatched", reason: expect.stringMatching(/^order_id Z names no order of this merchant; no pending order/) });
    expect(decide(claim({ outOrderId: "A" }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "A" } }); // the platform number in out_order_id
    expect(decide(claim({ orderId: "A", amount: 1 }), v)).toMatchObject({ reason: expect.stringMatching(/differs/) });
  });
  test("third-account claims (pid null) find the account by sub_account and any merchant's order", () => {
    const v = view([account(1, { name: "shop-a", pid: 1001 }), account(2, { name: "shop-b", pid: 2002 })], [order("A"), order("B", { accountId: 2, pid: 2002 })]);
    expect(decide(claim({ pid: null, subAccount: "shop-b", channelCode: "ignored" }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "B" } });
    expect(decide(claim({ pid: null, subAccount: "2" }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "B" } });
    expect(decide(claim({ pid: null, outOrderId: "out-A" }), v)).toMatchObject({ kind: "matched", order: { tradeNo: "A" } });
  });
});
