import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { md5Sign } from "../../src/protocols/signing.ts";
import { harness, type Harness, nativeCreate, postJson, SECRET, seed, signed } from "../helpers.ts";

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(() => h.close());

async function create(o: Record<string, string> = {}) {
  const { body } = await postJson(h, "/xpay/order/create", nativeCreate({ out_trade_no: "Q1", money: "1.00", ...o }));
  expect(body.code).toBe(200);
  return body.data as { trade_no: string; trade_amount: string };
}

const status = (out = "Q1") => postJson(h, "/xpay/order/status", signed({ pid: 1001, out_order_id: out }));
const cancel = (p: Record<string, string | number>) => postJson(h, "/xpay/order/cancel", signed({ pid: 1001, timestamp: h.clock.now(), ...p }));
const pay = (tradeNo: string) =>
  h.gw.store.payOrder({ tradeNo, now: h.clock.now(), nowMs: h.clock.nowMs(), acceptTimedOutSince: h.clock.now() - 600, outbox: () => null });

describe("native status", () => {
  test("pending, then paid with a signed return_uri, never before", async () => {
    await seed(h);
    const o = await create({ return_url: "https://shop.example/return?x=1" });
    const pending = await status();
    expect(pending.body).toEqual({ code: 200, msg: "success", data: { status: 1, expire_time: h.clock.now() + 900 } });
    await pay(o.trade_no);
    const paid = await status();
    expect(paid.body.data.status).toBe(2);
    const uri = new URL(paid.body.data.return_uri);
    expect(uri.origin + uri.pathname).toBe("https://shop.example/return");
    const q = Object.fromEntries(uri.searchParams);
    expect(q).toMatchObject({ x: "1", pid: "1001", trade_no: o.trade_no, out_trade_no: "Q1", amount: "100", trade_amount: "100", status: "2", pay_type: "alipay" });
    const { sign, x: _x, ...fields } = q;
    expect(sign).toBe(md5Sign(fields, SECRET, ["sign"]));
  });

  test("expiry reads as 4 before and after the sweeper writes it", async () => {
    await seed(h);
    await create();
    h.clock.advance(901);
    expect((await status()).body.data.status).toBe(4);
    expect(await h.gw.store.expireOrders(h.clock.now())).toBe(1);
    expect((await status()).body.data.status).toBe(4);
  });

  test("unknown order and tampered sign", async () => {
    await seed(h);
    expect((await status("nope")).body).toMatchObject({ code: 404, msg: "order not found" });
    expect((await postJson(h, "/xpay/order/status", { ...signed({ pid: 1001, out_order_id: "Q1" }), out_order_id: "Q2" })).body.code).toBe(401);
  });
});

describe("native cancel", () => {
  test("pending -> closed by out_order_id; closed again fails", async () => {
    await seed(h);
    await create();
    expect((await cancel({ out_order_id: "Q1" })).body).toEqual({ code: 200, msg: "success", data: null });
    expect((await status()).body.data.status).toBe(3);
    const again = await cancel({ out_order_id: "Q1" });
    expect(again.body.code).toBe(409);
    expect(again.body.msg).toContain("closed");
  });

  test("by order_id; paid cannot be closed; timed out cannot be closed", async () => {
    await seed(h);
    const o = await create();
    await pay(o.trade_no);
    const r = await cancel({ order_id: o.trade_no });
    expect(r.body).toMatchObject({ code: 409, msg: "order is paid and cannot be closed" });
    const o2 = await create({ out_trade_no: "Q2" });
    h.clock.advance(1000);
    expect((await cancel({ order_id: o2.trade_no })).body.msg).toContain("timed out");
  });

  test("stale or missing timestamp is refused; another merchant's order is not found", async () => {
    await seed(h);
    const o = await create();
    expect((await cancel({ out_order_id: "Q1", timestamp: h.clock.now() - 301 })).body.msg).toContain("window");
    const { body } = await postJson(h, "/xpay/order/cancel", signed({ pid: 1001, out_order_id: "Q1" }));
    expect(body).toMatchObject({ code: 400, msg: "missing parameter: timestamp" });
    await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: SECRET, now: h.clock.now() });
    expect((await postJson(h, "/xpay/order/cancel", signed({ pid: 1002, order_id: o.trade_no, timestamp: h.clock.now() }))).body.code).toBe(404);
  });
});

describe("native user-channels", () => {
  test("lists the merchant's own and shared enabled accounts with amounts in cents", async () => {
    const { account } = await seed(h, { min: 100, max: 50000, day: 1000000 });
    await h.gw.store.addMerchant({ pid: 1002, name: "Other", secret: "x".repeat(32), now: 0 });
    await h.gw.store.addChannel({ pid: 1002, payType: "wxpay", code: "wx", name: "Other's", qrcode: "wxp://x", now: 0 });
    const disabled = await h.gw.store.addChannel({ pid: 1001, payType: "qqpay", code: "qq", name: "Off", qrcode: "q", now: 0 });
    await h.gw.store.updateChannel(disabled.id, { enabled: false });
    const { body } = await postJson(h, "/xpay/user-channels", signed({ pid: 1001, timestamp: h.clock.now() }));
    expect(body.code).toBe(200);
    expect(body.data).toEqual([
      { id: account.id, name: "Alipay A", code: "alipay_qr", pay_type: "alipay", remark: "", min_amount: 100, max_amount: 50000, day_amount: 1000000 },
    ]);
    expect((await postJson(h, "/xpay/user-channels", signed({ pid: 1001 }, "bad"))).body.code).toBe(401);
  });
});
