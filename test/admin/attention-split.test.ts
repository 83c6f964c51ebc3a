// Issue 28 items 2 and 4 on the core the dashboard reads, through the real report API on a temp
// database: forwarded messages that are no payment (no amount) form their own list and never push
// money with no order off its 10 rows; a late payment is money reported after the expiry, so a 补单
// or an assignment (even 99 h after the expiry) is neither listed nor badged as late.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { attentionList } from "../../src/core/browse/attention.ts";
import { lateBy } from "../../src/core/browse/late.ts";
import { orderDetail } from "../../src/core/browse/order-detail.ts";
import { assignReportToOrder, confirmPaymentByHand } from "../../src/core/manual-payment.ts";
import { parseYuan } from "../../src/core/money.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder, report, smsContent } from "../report/util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

const act = { actor: "alice", reason: "支付宝账单核对过" };
/** An ant-forest notice forwarded by the phone: stored unmatched, with no amount. */
const noise = (i: number) => report(h, "/1001", { from: "shop-phone", content: smsContent("蚂蚁森林", `你收取了好友 ${i}g 能量`) });
const paidLate = async (tradeNo: string) => (await orderDetail(h.gw, tradeNo))!.timeline.find((e) => e.kind === "paid")?.detail.late;

describe("money with no order and messages that are no payment", () => {
  test("two payments stay on the money list under twelve newer notices; the notices are a list of their own", async () => {
    for (const cents of [20000, 6660]) expect((await amountReport(h, cents)).body.data.outcome).toBe("unmatched");
    for (let i = 0; i < 12; i++) {
      const r = await noise(i);
      expect(r.body.data).toMatchObject({ outcome: "unmatched" });
      h.clock.advance(1);
    }
    const a = await attentionList(h.gw);
    expect(a.rows.unmatchedReports.map((r) => r.amount)).toEqual([6660, 20000]);
    expect(a.more.unmatchedReports).toBe(false);
    expect(a.rows.notPayments).toHaveLength(10);
    expect(a.rows.notPayments.every((r) => r.amount === null && r.kind === "message")).toBe(true);
    expect(a.more.notPayments).toBe(true);
  });

  test("the report search narrows to money or to what was no payment", async () => {
    await amountReport(h, 20000);
    await noise(1);
    const search = (money?: boolean) => h.gw.store.browse.searchReports({ outcome: "unmatched", money, limit: 10 });
    expect((await search(true)).map((r) => r.amount)).toEqual([20000]);
    expect((await search(false)).map((r) => r.amount)).toEqual([null]);
    expect(await search()).toHaveLength(2);
  });
});

describe("late payments are money reported after the expiry", () => {
  test("a report matched inside the match window after the expiry is late, by when the money came", async () => {
    const o = await createOrder(h, { money: "10.00" });
    h.clock.advance(900 + 120);
    expect((await amountReport(h, parseYuan(o.trade_amount)!)).body.data.outcome).toBe("matched");
    const a = await attentionList(h.gw);
    expect(a.rows.latePayments.map((x) => [x.tradeNo, x.moneyAt - x.expireTime])).toEqual([[o.trade_no, 120]]);
    expect(await paidLate(o.trade_no)).toBe(true);
  });

  test("a 补单 on a timed-out order and an assignment 99 h after the expiry are not late", async () => {
    const confirmed = await createOrder(h, { money: "10.00" });
    const assigned = await createOrder(h, { money: "20.00" });
    // The payer of the second order paid 19.99 while it was payable: money reported in time, no match.
    const id = (await amountReport(h, 1999)).body.data.report_id as number;
    h.clock.advance(900 + 99 * 3600 + 55 * 60);
    expect((await confirmPaymentByHand(h.gw, confirmed.trade_no, act)).ok).toBe(true);
    expect((await assignReportToOrder(h.gw, id, assigned.trade_no, act)).kind).toBe("assigned");
    for (const no of [confirmed.trade_no, assigned.trade_no]) {
      const o = (await h.gw.store.getOrder(no))!;
      expect(o.status).toBe(2);
      expect(o.paidAt! - o.expireTime).toBeGreaterThanOrEqual(99 * 3600); // what the old rule called "99 h 55 min late"
      expect(await paidLate(no)).toBe(false);
    }
    expect((await attentionList(h.gw)).rows.latePayments).toEqual([]);
  });

  test("the rule itself: no reports (the store's pay unit alone) falls back to paid_at", async () => {
    const o = await createOrder(h, { money: "10.00" });
    const order = (await h.gw.store.getOrder(o.trade_no))!;
    const paid = { ...order, status: 2 as const, paidAt: order.expireTime + 30 };
    expect(lateBy(paid, [])).toBe(30);
    expect(lateBy({ ...paid, paidAt: order.expireTime }, [])).toBeNull();
    expect(lateBy(order, [])).toBeNull();
  });
});
