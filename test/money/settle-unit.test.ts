// Issue 21: the settlement unit and the core pay path at their edges, against the real store: the
// pay unit has the last word over a "matched" decision, what each outcome stores, who wakes the
// worker (and only when an outbox row was written), what is logged, the operator report, the
// return link, and guards for rows that vanished.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { LogFields } from "../../src/core/log.ts";
import { payOrder, payUnit, returnUri } from "../../src/core/pay-order.ts";
import { because } from "../../src/core/reasons.ts";
import { type MatchDecision, matched, notPaidReason } from "../../src/core/report-match.ts";
import { markClientSeen, settleOperatorPayment, settlePaymentReport } from "../../src/core/settle-report.ts";
import type { ReportRecord } from "../../src/core/store.ts";
import { md5Sign } from "../../src/protocols/signing.ts";
import { harness, type Harness, postJson, SECRET, seed, signed } from "../helpers.ts";
import { amountReport, createOrder, report } from "../report/util.ts";

let h: Harness;
let wakes = 0;
beforeEach(async () => {
  h = harness();
  await seed(h);
  wakes = 0;
  h.gw.onNotificationQueued(() => wakes++);
});
afterEach(() => h.close());

const base: ReportRecord = { kind: "amount", pid: 1001, client: "t", raw: "{}", amount: 1000, payType: "alipay", channelCode: "", dedupeKey: null, outcome: "unmatched", reason: "", tradeNo: null, createdAt: 0 };
async function settle(decide: MatchDecision | ((v: any) => MatchDecision), report: Partial<ReportRecord> = {}) {
  const merchant = (await h.gw.store.getMerchant(1001))!;
  return h.gw.store.settleReport({
    report: { ...base, createdAt: h.clock.now(), ...report },
    decide: typeof decide === "function" ? decide : () => decide,
    pay: (o) => payUnit(h.gw, merchant, 600, o.tradeNo),
    notPaid: notPaidReason,
  });
}
const stored = async () => (await h.gw.store.listReports({}))[0]!;
/** Any coded reason: these tests are about what the unit stores, not the wording. */
const why = because("ids_differ");

describe("the settlement unit stores what happened", () => {
  test("matched but no longer payable: the pay unit refuses, the report says why", async () => {
    const paid = await createOrder(h);
    await payOrder(h.gw, paid.trade_no);
    const order = (await h.gw.store.getOrder(paid.trade_no))!;
    const r = await settle(matched(order));
    expect(r).toMatchObject({ outcome: "unmatched", reason: `order ${paid.trade_no} is already paid; nothing changed`, tradeNo: paid.trade_no, pay: { kind: "already_paid" } });
    expect(await stored()).toMatchObject({ outcome: "unmatched", reason: r.reason, tradeNo: paid.trade_no });

    const closed = await createOrder(h, { money: "20.00" });
    await postJson(h, "/xpay/order/cancel", signed({ pid: 1001, order_id: closed.trade_no, timestamp: h.clock.now() }));
    const c = await settle(matched((await h.gw.store.getOrder(closed.trade_no))!));
    expect(c).toMatchObject({ outcome: "unmatched", reason: "order is closed", tradeNo: closed.trade_no, pay: { kind: "not_payable" } });

    const ghost = await settle(matched({ ...order, tradeNo: "20990101000000000000" }));
    expect(ghost).toMatchObject({ outcome: "unmatched", reason: "order not found", tradeNo: "20990101000000000000", pay: { kind: "not_found" } });
    expect(wakes).toBe(0);
  });

  test("paid: reason 'paid', with the rule's note when it has one", async () => {
    const o = await createOrder(h);
    const order = (await h.gw.store.getOrder(o.trade_no))!;
    const r = await settle(matched(order, { notes: [{ field: "order_id", id: "X", mine: false }], by_amount: true }));
    expect(r).toMatchObject({ outcome: "matched", reason: "paid (order_id X names no order; matched by amount)", tradeNo: o.trade_no, pay: { kind: "paid" } });
    expect(await stored()).toMatchObject({ outcome: "matched", reason: r.reason, tradeNo: o.trade_no });
  });

  test("ambiguous: every candidate named in the reason, none as the report's order", async () => {
    const reason = because("several", { n: 2, claim: { amount: 1000, pay_type: "alipay" }, orders: ["A1", "B2"] });
    const r = await settle({ kind: "ambiguous", reason, tradeNos: ["A1", "B2"] });
    const text = "2 pending orders match amount 1000, pay_type alipay; nothing paid (A1, B2)";
    expect(r).toEqual({ reportId: r.reportId, outcome: "unmatched", reason: text, why: reason, tradeNo: null, pay: null });
    expect(await stored()).toMatchObject({ outcome: "unmatched", reason: text, tradeNo: null, reasonCode: "several" });
  });

  test("unmatched: the order it is about is kept, or none", async () => {
    const o = await createOrder(h);
    const order = (await h.gw.store.getOrder(o.trade_no))!;
    expect(await settle({ kind: "unmatched", reason: why, order })).toMatchObject({ outcome: "unmatched", reason: why.text, tradeNo: o.trade_no, pay: null });
    expect(await settle({ kind: "unmatched", reason: why })).toMatchObject({ tradeNo: null });
  });

  test("duplicates: only of a report that was settled (matched or unmatched), stored with the reason", async () => {
    await h.gw.store.insertReport({ ...base, dedupeKey: "K", outcome: "rejected", reason: "bad sign", createdAt: h.clock.now() });
    expect((await settle({ kind: "unmatched", reason: why }, { dedupeKey: "K" })).outcome).toBe("unmatched");
    const again = await settle({ kind: "unmatched", reason: why }, { dedupeKey: "K" });
    expect(again).toMatchObject({ outcome: "duplicate", reason: "duplicate of an earlier report", tradeNo: null, pay: null });
    expect(await stored()).toMatchObject({ outcome: "duplicate", reason: "duplicate of an earlier report" });
    expect((await settle({ kind: "unmatched", reason: why })).outcome).toBe("unmatched");
    expect((await settle({ kind: "unmatched", reason: why })).outcome).toBe("unmatched");
  });

  test("the store's pay unit: an unknown trade_no is not found", async () => {
    const merchant = (await h.gw.store.getMerchant(1001))!;
    expect(await h.gw.store.payOrder(payUnit(h.gw, merchant, 600, "20990101000000000000"))).toEqual({ kind: "not_found" });
  });
});

describe("the worker is woken for outbox rows this process wrote, and only then", () => {
  test("core pay path", async () => {
    const quiet = await createOrder(h);
    expect((await payOrder(h.gw, quiet.trade_no)).kind).toBe("paid");
    expect(wakes).toBe(0); // no notify_url, no outbox row
    const loud = await createOrder(h, { money: "20.00", notify_url: "http://127.0.0.1:9/n" });
    expect((await payOrder(h.gw, loud.trade_no)).kind).toBe("paid");
    expect(wakes).toBe(1);
    expect((await payOrder(h.gw, loud.trade_no)).kind).toBe("already_paid");
    expect(wakes).toBe(1);
  });

  test("report path", async () => {
    await createOrder(h);
    await createOrder(h, { money: "20.00", notify_url: "http://127.0.0.1:9/n" });
    expect((await amountReport(h, 1000)).body.data.outcome).toBe("matched");
    expect(wakes).toBe(0);
    expect((await amountReport(h, 5555)).body.data.outcome).toBe("unmatched");
    expect(wakes).toBe(0);
    expect((await amountReport(h, 2000)).body.data.outcome).toBe("matched");
    expect(wakes).toBe(1);
    expect((await amountReport(h, 2000, { pay_time: "again" })).body.data.outcome).toBe("unmatched");
    expect(wakes).toBe(1);
  });
});

test("every settled report is logged with its outcome", async () => {
  const events: [string, LogFields | undefined][] = [];
  h.gw.log = { event: (name, fields) => events.push([name, fields]), error: () => {} };
  const o = await createOrder(h);
  await amountReport(h, 1000);
  expect(events.find(([n]) => n === "report")).toEqual(["report", { kind: "amount", pid: 1001, amount: 1000, outcome: "matched", trade_no: o.trade_no, reason: "paid" }]);
});

describe("operator payment (simulate-pay)", () => {
  test("stored as an operator report from the CLI with the order's amount and pay type", async () => {
    const o = await createOrder(h);
    await settleOperatorPayment(h.gw, o.trade_no, { buyer: "b" });
    expect(await stored()).toMatchObject({ kind: "operator", pid: 1001, client: "cli", raw: JSON.stringify({ trade_no: o.trade_no, buyer: "b" }), amount: 1000, payType: "alipay", channelCode: "", dedupeKey: null, outcome: "matched", reason: "paid", tradeNo: o.trade_no });
  });

  test("an order without a pay type is refused by the rule, with its reason", async () => {
    const res = await h.app.handle(new Request("http://localhost/xpay/hashpay/payment/do.html", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(withHash({ version: "1.1", appid: "1001", trade_order_id: "T1", total_fee: "10.00", title: "t", time: h.clock.now(), notify_url: "http://127.0.0.1/n", nonce_str: "n0" })),
    }));
    expect(res.status).toBe(200);
    const untyped = (await h.gw.store.listOrders({}))[0]!;
    expect(untyped.tradeAmount).toBeNull();
    expect(await settleOperatorPayment(h.gw, untyped.tradeNo)).toMatchObject({ outcome: "unmatched", reason: `order ${untyped.tradeNo} has no pay type yet; nothing paid`, pay: null });
  });

  test("rows that vanish between the reads and the unit: nothing paid, nothing thrown", async () => {
    const o = await createOrder(h);
    const real = (await h.gw.store.getOrder(o.trade_no))!;
    const getOrder = h.gw.store.getOrder;
    h.gw.store.getOrder = async () => ({ ...real, tradeNo: "20990101000000000000" });
    expect(await settleOperatorPayment(h.gw, "20990101000000000000")).toMatchObject({ outcome: "unmatched", reason: "order not found", tradeNo: null });
    h.gw.store.getOrder = getOrder;
    h.gw.store.getMerchant = async () => null;
    expect(await settleOperatorPayment(h.gw, o.trade_no)).toBeNull();
    expect(await payOrder(h.gw, o.trade_no)).toEqual({ kind: "not_found" });
    expect((await h.gw.store.getOrder(o.trade_no))?.status).toBe(1);
  });
});

describe("payment facts reported by a phone", () => {
  test("kept at most 128 characters; an ampersand becomes a full-width one", async () => {
    const o = await createOrder(h);
    await payOrder(h.gw, o.trade_no, { buyer: `a&b${"x".repeat(200)}`, apiTradeNo: "T&1" });
    const paid = (await h.gw.store.getOrder(o.trade_no))!;
    expect(paid.buyer).toBe(`a＆b${"x".repeat(125)}`);
    expect(paid.apiTradeNo).toBe("T＆1");
    const plain = await createOrder(h, { money: "20.00" });
    await payOrder(h.gw, plain.trade_no, { buyer: "", apiTradeNo: "" });
    expect(await h.gw.store.getOrder(plain.trade_no)).toMatchObject({ buyer: "", apiTradeNo: "" });
  });
});

describe("return link", () => {
  test("only for a paid order with a return_url, signed like its notification", async () => {
    const o = await createOrder(h, { return_url: "https://shop.example/back?x=1" });
    const pending = (await h.gw.store.getOrder(o.trade_no))!;
    expect(await returnUri(h.gw, pending)).toBeNull();
    await payOrder(h.gw, o.trade_no);
    const paid = (await h.gw.store.getOrder(o.trade_no))!;
    const link = new URL((await returnUri(h.gw, paid))!);
    expect(link.origin + link.pathname).toBe("https://shop.example/back");
    const params = Object.fromEntries(link.searchParams);
    expect(params).toMatchObject({ x: "1", trade_no: o.trade_no, status: "2", pid: "1001" });
    const { sign, x, ...fields } = params;
    expect(sign).toBe(md5Sign(fields, SECRET, ["sign"]));
    expect(await returnUri(h.gw, { ...paid, returnUrl: "" })).toBeNull();
    // A family that signs with its own per-order key (V免签: the creating client's): none, no link.
    const client = await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone1", key: "k".repeat(32), accountIds: [], now: h.clock.now() });
    if (client.kind !== "added") throw new Error(client.reason);
    expect(await returnUri(h.gw, { ...paid, family: "vmq", extra: { vmq_client: String(client.client.id) } })).toContain("https://shop.example/back?");
    expect(await returnUri(h.gw, { ...paid, family: "vmq", extra: { vmq_client: "999" } })).toBeNull();
    h.gw.store.getMerchant = async () => null;
    expect(await returnUri(h.gw, paid)).toBeNull();
  });
});

describe("clients", () => {
  test("an unnamed client is listed as (unnamed), with empty ext_data and no channel", async () => {
    await markClientSeen(h.gw, { kind: "phone", pid: 1001, name: "" }, [1]);
    expect((await h.gw.store.listClients())[0]).toMatchObject({ kind: "phone", pid: 1001, name: "(unnamed)", channelId: null, extData: "", lastSeenAt: h.clock.now() });
    expect((await h.gw.store.getChannel(1))?.lastSeenAt).toBe(h.clock.now());
  });

  test("a report marks online only the accounts of its pay type", async () => {
    const wx = await h.gw.store.addChannel({ pid: 1001, payType: "wxpay", code: "wx", name: "wx", qrcode: "q", now: h.clock.now() });
    h.clock.advance(10);
    await report(h, "/1001/pc", { amount: 1, pay_type: "wxpay", channel_code: "wx" });
    expect((await h.gw.store.getChannel(wx.id))?.lastSeenAt).toBe(h.clock.now());
    expect((await h.gw.store.getChannel(1))?.lastSeenAt).toBe(0);
  });
});

test("a third-account report pays an order on a merchant's own account, found by sub_account", async () => {
  await h.gw.store.updateChannel(1, { enabled: false });
  const own = await h.gw.store.addChannel({ pid: 1001, payType: "alipay", code: "own", name: "Own", qrcode: "q", now: h.clock.now() });
  const o = await createOrder(h);
  expect((await h.gw.store.getOrder(o.trade_no))?.accountId).toBe(own.id);
  await h.gw.store.setSetting("third_account_secret", "third-secret-0123456789");
  h.gw.forgetSettings();
  const r = await report(h, "/third-account", { account: "w", type: 1, sub_account: "Own", amount: 1000, pay_type: "alipay", channel_code: "x" }, { secret: "third-secret-0123456789" });
  expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
});

function withHash(d: Record<string, string | number>) {
  return { ...d, hash: md5Sign(d, SECRET, ["hash"]) };
}
