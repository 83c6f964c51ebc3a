import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { settleOperatorPayment } from "../../src/core/settle-report.ts";
import { harness, type Harness, postJson, seed, signed } from "../helpers.ts";
import { amountReport, createOrder, report, smsContent } from "./util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const order = (t: string) => h.gw.store.getOrder(t);

describe("matching", () => {
  test("50 concurrent identical reports pay one order once", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    const results = await Promise.all(Array.from({ length: 50 }, () => amountReport(h, 1000, { pay_time: "2026-11-22 13:00:00" })));
    const outcomes = results.map((r) => r.body.data.outcome);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(outcomes.filter((x) => x === "matched").length).toBe(1);
    expect(outcomes.filter((x) => x === "duplicate").length).toBe(49);
    expect((await order(o.trade_no))?.status).toBe(2);
    expect((await h.gw.store.listNotifications({})).length).toBe(1);
  });

  test("a report for an amount with no order stays unmatched", async () => {
    const o = await createOrder(h);
    const r = await amountReport(h, 1234);
    expect(r.body).toMatchObject({ code: 200, data: { outcome: "unmatched", trade_no: "" } });
    expect(r.body.message).toMatch(/no pending order/);
    expect((await order(o.trade_no))?.status).toBe(1);
  });

  test("a late payment within the match window pays its own order, never the newer one", async () => {
    const a = await createOrder(h);
    expect(a.trade_amount).toBe("10.00");
    h.clock.advance(900 + 300); // A timed out 300 s ago: inside the 600 s window
    const b = await createOrder(h);
    expect(b.trade_amount).toBe("9.99"); // 10.00 stays reserved for A's late payment
    const r = await amountReport(h, 1000);
    expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: a.trade_no });
    expect((await order(a.trade_no))?.status).toBe(2);
    expect((await order(b.trade_no))?.status).toBe(1);
  });

  test("past the match window a timed-out order is not paid", async () => {
    const a = await createOrder(h);
    h.clock.advance(900 + 601);
    const r = await amountReport(h, 1000);
    expect(r.body.data.outcome).toBe("unmatched");
    expect(r.body.data.reason).toMatch(/no pending order/);
    expect((await order(a.trade_no))?.status).not.toBe(2);
  });

  test("two accounts with the same payable amount: ambiguous, nothing paid", async () => {
    // Added past the core (no report groups computed): the two orders share an amount, as orders made
    // before a client was unbound can (test/clients/report-groups.test.ts: groups prevent it).
    await h.gw.store.addChannel({ pid: 1001, payType: "alipay", code: "alipay_qr", name: "Alipay B", qrcode: "https://qr.alipay.com/b", now: h.clock.now() });
    const a = await createOrder(h);
    const b = await createOrder(h);
    expect(a.trade_amount).toBe("10.00");
    expect(b.trade_amount).toBe("10.00");
    const r = await report(h, "/1001", { from: "x", content: smsContent("", "通过扫码向你付款10.00元") });
    expect(r.body.data.outcome).toBe("unmatched");
    expect(r.body.data.reason).toMatch(/2 pending orders/);
    // Naming the account settles it.
    const named = await amountReport(h, 1000, { channel_account_id: 2, pay_time: "t2" });
    expect(named.body.data.outcome).toBe("matched");
    expect((await order(b.trade_no))?.status).toBe(2);
  });

  test("order_id / out_order_id must agree with the amount match", async () => {
    const o = await createOrder(h);
    const other = await createOrder(h, { money: "20.00" });
    const wrong = await amountReport(h, 1000, { out_order_id: other.out_trade_no });
    expect(wrong.body.data.outcome).toBe("unmatched");
    const mismatch = await amountReport(h, 999, { order_id: o.trade_no });
    expect(mismatch.body.data.reason).toMatch(/differs/);
    const right = await amountReport(h, 1000, { order_id: o.trade_no, out_order_id: o.out_trade_no });
    expect(right.body.data.outcome).toBe("matched");
  });

  test("a repeated report (same body) is a duplicate; a closed order's amount pays nothing", async () => {
    const o = await createOrder(h);
    const first = await amountReport(h, 1000);
    expect(first.body.data.outcome).toBe("matched");
    const again = await amountReport(h, 1000);
    expect(again.body.data.outcome).toBe("duplicate");
    const c = await createOrder(h, { money: "20.00" });
    const closed = await postJson(h, "/xpay/order/cancel", signed({ pid: 1001, order_id: c.trade_no, timestamp: h.clock.now() }));
    expect(closed.body.code).toBe(200);
    const late = await amountReport(h, 2000);
    expect(late.body.data).toMatchObject({ outcome: "unmatched", trade_no: c.trade_no });
    expect(late.body.data.reason).toMatch(/closed/);
    expect((await order(o.trade_no))?.status).toBe(2);
  });
});

describe("operator payment (simulate-pay)", () => {
  test("pays through the same unit, stored as an operator report; a second time changes nothing", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    const r = await settleOperatorPayment(h.gw, o.trade_no);
    expect(r).toMatchObject({ outcome: "matched", tradeNo: o.trade_no });
    expect(r?.pay?.kind).toBe("paid");
    const again = await settleOperatorPayment(h.gw, o.trade_no);
    expect(again?.outcome).toBe("unmatched");
    expect(again?.reason).toMatch(/already paid/);
    expect((await h.gw.store.listReports({})).map((x) => x.kind)).toEqual(["operator", "operator"]);
    expect((await h.gw.store.listNotifications({})).length).toBe(1);
    expect(await settleOperatorPayment(h.gw, "nope")).toBeNull();
  });
});
