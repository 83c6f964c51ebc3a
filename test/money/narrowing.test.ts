// Issue 21: an amount report narrows by channel code, account id and pay type through the HTTP
// report API, not only in the pure rule: two accounts hold the same payable amount.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder, report, smsContent } from "../report/util.ts";

let h: Harness;
let a: string;
let b: string;
let bAccount: number;
beforeEach(async () => {
  h = harness();
  await seed(h); // account 1: the merchant's alipay, code alipay_qr
  // Added past the core (no report groups computed), so both orders get the same amount, as orders
  // made before a client was unbound still can.
  bAccount = (await h.gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_b", name: "Alipay B", qrcode: "https://qr.alipay.com/b", now: h.clock.now() })).id;
  a = (await createOrder(h)).trade_no;
  b = (await createOrder(h)).trade_no;
  const accounts = [(await h.gw.store.getOrder(a))!, (await h.gw.store.getOrder(b))!].map((o) => [o.accountId, o.tradeAmount]);
  expect(accounts).toEqual([[1, 1000], [bAccount, 1000]]); // round-robin: one order on each, the same amount
});
afterEach(() => h.close());

const status = async (t: string) => (await h.gw.store.getOrder(t))?.status;

describe("narrowing an amount report", () => {
  test("without a narrowing field both orders match: ambiguous, nothing paid", async () => {
    const r = await report(h, "/1001", { from: "x", content: smsContent("", "通过扫码向你付款10.00元") });
    expect(r.body.data).toMatchObject({ outcome: "unmatched", trade_no: "" });
    expect(r.body.data.reason).toBe(`2 pending orders match amount 1000, pay_type alipay; nothing paid (${a}, ${b})`);
    expect([await status(a), await status(b)]).toEqual([1, 1]);
  });

  test("channel_code picks the account with that code", async () => {
    const r = await amountReport(h, 1000, { channel_code: "alipay_b" });
    expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: b });
    expect([await status(a), await status(b)]).toEqual([1, 2]);
    const other = await amountReport(h, 1000, { channel_code: "alipay_qr" });
    expect(other.body.data).toMatchObject({ outcome: "matched", trade_no: a });
  });

  test("a channel_code no account has matches nothing", async () => {
    const r = await amountReport(h, 1000, { channel_code: "nope" });
    expect(r.body.data).toMatchObject({ outcome: "unmatched", reason: "no account matches amount 1000, pay_type alipay, channel_code nope" });
  });

  test("channel_account_id outranks the code", async () => {
    const r = await amountReport(h, 1000, { channel_code: "alipay_qr", channel_account_id: bAccount });
    expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: b });
  });

  test("another pay type matches neither", async () => {
    const r = await amountReport(h, 1000, { pay_type: "wxpay", channel_code: "alipay_b" });
    expect(r.body.data).toMatchObject({ outcome: "unmatched", reason: "no account matches amount 1000, pay_type wxpay, channel_code alipay_b" });
    expect([await status(a), await status(b)]).toEqual([1, 1]);
  });
});
