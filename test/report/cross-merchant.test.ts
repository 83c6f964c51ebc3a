// Issue 14 items 10-11 and issue 21: a report of one merchant's phone never pays another merchant's
// order, whether it names the order or only its amount, on a shared (pid 0) account or another
// merchant's own; the real SQLite match view, through the HTTP report API. Either order number
// (platform or merchant) is accepted in either id field. The reports here come from each merchant's
// report client (a phone with a secret of its own, which may watch the shared accounts); a
// merchant's AppSecret never pays on a shared account at all (test/security/report-scope.test.ts).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addClient } from "../../src/core/clients/keyed.ts";
import { settlePaymentReport } from "../../src/core/settle-report.ts";
import { harness, type Harness, postJson, seed, signed } from "../helpers.ts";
import { createOrder, report, smsContent } from "./util.ts";

const SECRET_B = "b2c3d4e5f60718293a4b5c6d7e8f90a1";
const KEY_A = "phone-of-a-0123456789abcdef";
const KEY_B = "phone-of-b-0123456789abcdef";
let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h); // merchant 1001 (A) and its own account 1, disabled here
  await h.gw.store.updateChannel(1, { enabled: false });
  await h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "alipay_qr", name: "Shared", qrcode: "https://qr.alipay.com/s", now: h.clock.now() }); // 2
  await h.gw.store.addMerchant({ pid: 1002, name: "Other shop", secret: SECRET_B, now: h.clock.now() });
  for (const [pid, key] of [[1001, KEY_A], [1002, KEY_B]] as const) {
    const r = await addClient(h.gw, CLI_ACTOR, { kind: "report", pid, name: `phone-${pid}`, key, accountIds: [] });
    if (!r.ok) throw new Error(r.reason);
  }
});
const amountReport = (hh: Harness, amount: number, extra: Record<string, string | number> = {}) =>
  report(hh, "/1001/pc", { amount, pay_type: "alipay", channel_code: "alipay_qr", ...extra }, { secret: KEY_A });
afterEach(() => h.close());

const order = (t: string) => h.gw.store.getOrder(t);
async function createB(o: Record<string, string> = {}) {
  const { body } = await postJson(h, "/xpay/order/create", signed({ pid: 1002, pay_type: "alipay", name: "VIP", money: "10.00", out_trade_no: `B${Math.random().toString(36).slice(2)}`, notify_url: "http://127.0.0.1:9/n", ...o }, SECRET_B));
  expect(body.code).toBe(200);
  return body.data as { trade_no: string; out_trade_no: string; trade_amount: string };
}
const reportB = (amount: number, extra: Record<string, string | number> = {}) =>
  report(h, "/1002/pc", { amount, pay_type: "alipay", channel_code: "alipay_qr", ...extra }, { secret: KEY_B });

describe("a report of merchant A on a shared account", () => {
  test("matching only B's order by amount: 200, stored unmatched with the reason, B's order untouched", async () => {
    const b = await createB();
    expect(b.trade_amount).toBe("10.00");
    const r = await amountReport(h, 1000);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, data: { outcome: "unmatched", trade_no: "" } });
    expect(r.body.data.reason).toBe("the order for amount 1000, pay_type alipay, channel_code alipay_qr belongs to another merchant (a shared account); nothing paid");
    expect(JSON.stringify(r.body)).not.toContain(b.trade_no); // A never learns B's order number
    expect((await order(b.trade_no))?.status).toBe(1);
    expect(await h.gw.store.listNotifications({})).toEqual([]);
    const [stored] = await h.gw.store.listReports({});
    expect(stored).toMatchObject({ kind: "amount", pid: 1001, outcome: "unmatched", tradeNo: null });
    expect(stored!.reason).toMatch(/another merchant/);
    // B's own report of the same payment still pays it.
    expect((await reportB(1000)).body.data).toMatchObject({ outcome: "matched", trade_no: b.trade_no });
  });

  test("a notification message of A matching B's amount: stored unmatched, not a 500", async () => {
    const b = await createB();
    const r = await report(h, "/1001", { from: "x", content: smsContent("支付宝通知", "你已成功收款10.00元") }, { secret: KEY_A });
    expect(r.status).toBe(200);
    expect(r.body.data.outcome).toBe("unmatched");
    expect(r.body.data.reason).toMatch(/another merchant/);
    expect((await order(b.trade_no))?.status).toBe(1);
    expect((await h.gw.store.listReports({ outcome: "unmatched" })).length).toBe(1);
  });

  test("naming B's order by order_id or out_order_id (either number) pays nothing", async () => {
    const b = await createB();
    const named: Record<string, string>[] = [{ order_id: b.trade_no }, { out_order_id: b.trade_no }, { order_id: b.out_trade_no }, { out_order_id: b.out_trade_no }];
    for (const ids of named) {
      const r = await amountReport(h, 1000, ids);
      expect(r.status).toBe(200);
      expect(r.body.data.outcome).toBe("unmatched");
      // B's order reads exactly like no order at all: A cannot probe B's order numbers.
      expect(r.body.data.reason).toBe(`${Object.keys(ids)[0]} ${Object.values(ids)[0]} names no order of this merchant; the order for amount 1000, pay_type alipay, channel_code alipay_qr belongs to another merchant (a shared account); nothing paid`);
      expect(r.body.data.trade_no).toBe("");
      expect((await order(b.trade_no))?.status).toBe(1);
    }
    expect(await h.gw.store.listNotifications({})).toEqual([]);
  });

  test("with both merchants pending on the shared account, each report pays only its own merchant's order", async () => {
    const a = await createOrder(h);
    const b = await createB();
    expect([a.trade_amount, b.trade_amount]).toEqual(["10.00", "9.99"]); // one slot per amount per account
    expect((await amountReport(h, 999)).body.data.outcome).toBe("unmatched");
    expect((await order(b.trade_no))?.status).toBe(1);
    expect((await amountReport(h, 1000)).body.data).toMatchObject({ outcome: "matched", trade_no: a.trade_no });
    expect((await reportB(999)).body.data).toMatchObject({ outcome: "matched", trade_no: b.trade_no });
  });
});

describe("the settlement pays only merchants the reporter speaks for", () => {
  test("a claim that reaches B's order while only A is loaded is stored unmatched, never thrown", async () => {
    const b = await createB();
    const a = (await h.gw.store.getMerchant(1001))!;
    const claim = { pid: null, amount: 1000, payType: "alipay", channelCode: "", accountId: null, subAccount: "", orderId: b.trade_no, outOrderId: "" };
    const input = { kind: "amount" as const, pid: 1001, client: "t", raw: "{}", amount: 1000, payType: "alipay", channelCode: "", dedupeKey: null };
    const r = await settlePaymentReport(h.gw, input, claim, [a]);
    expect(r).toMatchObject({ outcome: "unmatched", reason: "the order belongs to another merchant; nothing paid", tradeNo: null, pay: null });
    expect((await order(b.trade_no))?.status).toBe(1);
    expect((await h.gw.store.listReports({})).length).toBe(1);
  });
});

describe("the match view lists only the reporting merchant's own and shared accounts", () => {
  test("B's order on B's own account is invisible to A's report", async () => {
    await h.gw.store.updateChannel(2, { enabled: false });
    const own = await h.gw.store.addChannel({ pid: 1002, payType: "alipay", code: "alipay_qr", name: "B's own", qrcode: "https://qr.alipay.com/b", now: h.clock.now() });
    const b = await createB();
    expect((await order(b.trade_no))?.accountId).toBe(own.id);
    const byAmount = await amountReport(h, 1000);
    expect(byAmount.body.data).toMatchObject({ outcome: "unmatched", trade_no: "" });
    expect(byAmount.body.data.reason).toMatch(/no pending order matches/);
    const byAccount = await amountReport(h, 1000, { channel_account_id: own.id });
    expect(byAccount.body.data.reason).toMatch(/no account matches/);
    expect((await order(b.trade_no))?.status).toBe(1);
  });
});

describe("order ids in amount reports (issue 14 item 11)", () => {
  test("order_id may carry the merchant number and out_order_id the platform number", async () => {
    const one = await createOrder(h);
    const r1 = await amountReport(h, 1000, { order_id: one.out_trade_no });
    expect(r1.body.data).toMatchObject({ outcome: "matched", trade_no: one.trade_no });
    const two = await createOrder(h, { money: "20.00" });
    const r2 = await amountReport(h, 2000, { out_order_id: two.trade_no });
    expect(r2.body.data).toMatchObject({ outcome: "matched", trade_no: two.trade_no });
  });

  test("an id that names no order does not block matching by amount; the stored reason says why", async () => {
    const o = await createOrder(h);
    const r = await amountReport(h, 1000, { out_order_id: "not-an-order-42" });
    expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
    const [stored] = await h.gw.store.listReports({ outcome: "matched" });
    expect(stored!.reason).toMatch(/out_order_id not-an-order-42 names no order.*matched by amount/);
  });

  test("two ids naming two different orders pay neither", async () => {
    const one = await createOrder(h);
    const two = await createOrder(h, { money: "20.00" });
    const r = await amountReport(h, 1000, { order_id: one.trade_no, out_order_id: two.out_trade_no });
    expect(r.body.data.outcome).toBe("unmatched");
    expect(r.body.data.reason).toMatch(/different orders/);
    expect((await order(one.trade_no))?.status).toBe(1);
  });
});

describe("unknown paths under /api/ answer 404 in {code, message, data}", () => {
  for (const [method, path] of [["GET", "/api/nope"], ["POST", "/api/report/1001/nope"], ["GET", "/api/report/1001"], ["GET", "/api/report"], ["POST", "/api/order/nope"]] as const) {
    test(`${method} ${path}`, async () => {
      const res = await h.app.handle(new Request(`http://localhost${path}`, { method, ...(method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {}) }));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 404, message: "not found", data: null });
    });
  }
});
