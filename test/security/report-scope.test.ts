// Issue 27 item 1: a merchant's AppSecret never pays what the merchant does not own. Merchant A
// signs the report API with its own AppSecret and reports B's order (and its own) on the
// operator's shared account as paid: nothing is paid, nothing is notified, and its heartbeat marks
// only A's own accounts online. The operator's phone (a client of pid 0, a secret of its own) pays
// any merchant's order on the accounts it watches; the setting report_merchant_secret=0 turns the
// AppSecret reports off altogether. Every assertion on the shared account fails on a gateway where
// the AppSecret reaches every account its merchant can use.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addClient } from "../../src/core/clients/keyed.ts";
import { changeSettings } from "../../src/core/settings-change.ts";
import { harness, type Harness, postJson, SECRET, seed, signed } from "../helpers.ts";
import { createOrder, report, smsContent } from "../report/util.ts";

const SECRET_B = "b2c3d4e5f60718293a4b5c6d7e8f90a1";
const OPERATOR_KEY = "operator-phone-key-0123456789";
let h: Harness;
let shared: number;
beforeEach(async () => {
  h = harness();
  await seed(h); // A = 1001 with its own Alipay account 1
  await h.gw.store.updateChannel(1, { enabled: false }); // new orders go to the shared account
  shared = (await h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "shared_qr", name: "Shared", qrcode: "https://qr.alipay.com/s", now: h.clock.now() })).id;
  await h.gw.store.addMerchant({ pid: 1002, name: "B", secret: SECRET_B, now: h.clock.now() });
});
afterEach(() => h.close());

async function orderOf(pid: number, secret: string, money = "10.00") {
  const { body } = await postJson(h, "/xpay/order/create", signed({ pid, pay_type: "alipay", name: "VIP", money, out_trade_no: `O${Math.random().toString(36).slice(2)}`, notify_url: "http://127.0.0.1:9/n" }, secret));
  expect(body.code).toBe(200);
  return body.data as { trade_no: string; trade_amount: string };
}
const status = async (t: string) => (await h.gw.store.getOrder(t))?.status;
const amountOf = (d: { trade_amount: string }) => Math.round(Number(d.trade_amount) * 100);

describe("a merchant's AppSecret on the operator's shared account", () => {
  test("pays neither another merchant's order nor its own: 200, stored unmatched, nothing notified", async () => {
    const a = await orderOf(1001, SECRET);
    const b = await orderOf(1002, SECRET_B);
    for (const o of [a, b]) {
      const r = await report(h, "/1001/pc", { amount: amountOf(o), pay_type: "alipay", channel_code: "shared_qr" });
      expect(r.status).toBe(200);
      expect(r.body.data.outcome).toBe("unmatched");
      expect(r.body.data.reason).toMatch(/^no account matches/);
    }
    // Naming the account, or the order by either number, changes nothing.
    const named = await report(h, "/1001/pc", { amount: amountOf(a), pay_type: "alipay", channel_code: "shared_qr", channel_account_id: shared, order_id: a.trade_no });
    expect(named.body.data.outcome).toBe("unmatched");
    const msg = await report(h, "/1001", { from: "x", content: smsContent("支付宝通知", `你已成功收款${a.trade_amount}元`) });
    expect(msg.body.data.outcome).toBe("unmatched");
    expect([await status(a.trade_no), await status(b.trade_no)]).toEqual([1, 1]);
    expect(await h.gw.store.listNotifications({})).toEqual([]);
  });

  test("still pays an order on the merchant's own account (the spec's report API)", async () => {
    await h.gw.store.updateChannel(1, { enabled: true });
    await h.gw.store.updateChannel(shared, { enabled: false });
    const a = await createOrder(h);
    const r = await report(h, "/1001/pc", { amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" });
    expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: a.trade_no });
  });

  test("its heartbeat marks only the merchant's own accounts online, never the shared one", async () => {
    h.clock.advance(100);
    const r = await report(h, "/1001/heart", { client_name: "phone" });
    expect(r.body.data).toEqual({ accounts: 1 });
    expect((await h.gw.store.getChannel(1))!.lastSeenAt).toBe(h.clock.now());
    expect((await h.gw.store.getChannel(shared))!.lastSeenAt).toBe(0);
  });

  test("report_merchant_secret=0 refuses it with 403 and the way out; a client's own secret still reports", async () => {
    await h.gw.store.updateChannel(1, { enabled: true });
    await h.gw.store.updateChannel(shared, { enabled: false });
    const a = await createOrder(h);
    expect((await changeSettings(h.gw, CLI_ACTOR, { report_merchant_secret: "0" })).kind).toBe("saved");
    const r = await report(h, "/1001/pc", { amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/report_merchant_secret=0.*xpay client add-report/);
    expect((await h.gw.store.listReports({ outcome: "rejected" })).length).toBe(1);
    const key = "phone-of-1001-0123456789";
    expect((await addClient(h.gw, CLI_ACTOR, { kind: "report", pid: 1001, name: "phone", key, accountIds: [] })).ok).toBe(true);
    const ok = await report(h, "/1001/pc", { amount: 1000, pay_type: "alipay", channel_code: "alipay_qr" }, { secret: key });
    expect(ok.body.data).toMatchObject({ outcome: "matched", trade_no: a.trade_no });
  });
});

describe("the operator's own phone (a client of pid 0)", () => {
  test("pays any merchant's order on the shared account it watches, by /api/report/0", async () => {
    expect((await addClient(h.gw, CLI_ACTOR, { kind: "report", pid: 0, name: "operator-phone", key: OPERATOR_KEY, accountIds: [shared] })).ok).toBe(true);
    const a = await orderOf(1001, SECRET);
    const b = await orderOf(1002, SECRET_B);
    expect(a.trade_amount).not.toBe(b.trade_amount);
    for (const o of [b, a]) {
      const r = await report(h, "/0/pc", { amount: amountOf(o), pay_type: "alipay", channel_code: "shared_qr" }, { secret: OPERATOR_KEY });
      expect(r.body.data).toMatchObject({ outcome: "matched", trade_no: o.trade_no });
    }
    // Its heartbeat marks the shared account online; /api/report/0 without a client of pid 0 is unknown.
    h.clock.advance(5);
    expect((await report(h, "/0/heart", { client_name: "ignored" }, { secret: OPERATOR_KEY })).body.data).toEqual({ accounts: 1 });
    expect((await h.gw.store.getChannel(shared))!.lastSeenAt).toBe(h.clock.now());
    const stranger = await report(h, "/0/pc", { amount: 1000, pay_type: "alipay", channel_code: "shared_qr" }, { secret: SECRET });
    expect(stranger.status).toBe(401);
  });

  test("a merchant's own phone bound to the shared account pays only that merchant's orders there", async () => {
    const key = "phone-of-1001-0123456789";
    expect((await addClient(h.gw, CLI_ACTOR, { kind: "report", pid: 1001, name: "a-phone", key, accountIds: [shared] })).ok).toBe(true);
    const b = await orderOf(1002, SECRET_B);
    const r = await report(h, "/1001/pc", { amount: amountOf(b), pay_type: "alipay", channel_code: "shared_qr" }, { secret: key });
    expect(r.body.data.outcome).toBe("unmatched");
    expect(r.body.data.reason).toMatch(/belongs to another merchant/);
    expect(await status(b.trade_no)).toBe(1);
  });
});
