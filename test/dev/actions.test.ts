// Issue 19, the core of test mode on a ManualClock: the seed, pay / fail / expire through the
// paths real orders take, and the injectable retry schedule.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createSign, createVerify } from "node:crypto";
import { devExpire, devFail, devPay } from "../../src/core/dev/actions.ts";
import { DEV_MERCHANT_PRIVATE_KEY, DEV_PLATFORM_PRIVATE_KEY, DEV_PLATFORM_PUBLIC_KEY } from "../../src/core/dev/keys.ts";
import { DEV_RETRY_DELAYS_S } from "../../src/core/dev/mode.ts";
import { seedDevGateway } from "../../src/core/dev/seed.ts";
import { deliverDue } from "../../src/core/notify/deliver.ts";
import { nextRetryAt, RETRY_DELAYS_S } from "../../src/core/notify/schedule.ts";
import { createOrder as coreCreate } from "../../src/core/create-order.ts";
import { harness, type Harness } from "../helpers.ts";
import { startReceiver, type Receiver } from "../notify/receiver.ts";
import { createOrder } from "../report/util.ts";

let h: Harness;
let rx: Receiver | null = null;
beforeEach(async () => {
  h = harness();
  await seedDevGateway(h.gw);
});
afterEach(() => {
  rx?.stop();
  rx = null;
  h.close();
});

const pairs = (priv: string, pub: string) => createVerify("RSA-SHA256").update("x").verify(pub, createSign("RSA-SHA256").update("x").sign(priv));

describe("seed", () => {
  test("the guide's example merchant, the fixed key pairs, one account per pay type without limits, the V免签 key", async () => {
    const m = (await h.gw.store.getMerchant(1001))!;
    expect(m.secret).toBe("a1b2c3d4e5f60718293a4b5c6d7e8f90");
    expect(pairs(DEV_MERCHANT_PRIVATE_KEY, m.rsaPublicKey!)).toBe(true);
    const s = await h.gw.store.getSettings();
    expect([s.platform_private_key, s.platform_public_key]).toEqual([DEV_PLATFORM_PRIVATE_KEY, DEV_PLATFORM_PUBLIC_KEY]);
    expect(pairs(DEV_PLATFORM_PRIVATE_KEY, DEV_PLATFORM_PUBLIC_KEY)).toBe(true);
    const accounts = await h.gw.store.listChannels({ pid: 1001 });
    expect(accounts.map((a) => [a.payType, a.code, a.minAmount, a.maxAmount, a.dayAmount, a.enabled])).toEqual([
      ["alipay", "alipay_qr", 0, 0, 0, true],
      ["wxpay", "wxpay_qr", 0, 0, 0, true],
      ["qqpay", "qqpay_qr", 0, 0, 0, true],
    ]);
    expect((await h.gw.store.listKeyedClients()).map((c) => [c.pid, c.key])).toEqual([[1001, "4b5a3c2d1e0f9a8b7c6d5e4f3a2b1c0d"]]);
  });

  test("seeding again adds nothing and puts back the fixed values a developer changed", async () => {
    await h.gw.store.updateMerchant(1001, { secret: "rotated-secret-0000", rsaPublicKey: null });
    await h.gw.store.updateChannel((await h.gw.store.listChannels({ pid: 1001 }))[0]!.id, { enabled: false });
    await seedDevGateway(h.gw);
    expect((await h.gw.store.getMerchant(1001))!.secret).toBe("a1b2c3d4e5f60718293a4b5c6d7e8f90");
    expect((await h.gw.store.getMerchant(1001))!.rsaPublicKey).not.toBeNull();
    expect((await h.gw.store.listChannels({})).map((a) => a.enabled)).toEqual([true, true, true]);
    expect((await h.gw.store.listKeyedClients()).length).toBe(1);
    expect((await h.gw.store.listMerchants()).length).toBe(1);
  });
});

describe("pay, fail, expire", () => {
  test("pay runs the report settlement: an operator report from 'dev', the order paid, its notification queued", async () => {
    rx = startReceiver(["success"]);
    const o = await createOrder(h, { notify_url: rx.url });
    const r = await devPay(h.gw, o.trade_no);
    expect(r).toMatchObject({ ok: true, outcome: "matched", notificationQueued: true, order: { status: 2, apiTradeNo: `DEV${o.trade_no}` } });
    const [report] = await h.gw.store.listReports({ pid: 1001 });
    expect(report).toMatchObject({ kind: "operator", client: "dev", outcome: "matched", tradeNo: o.trade_no });
    expect(await deliverDue(h.gw)).toEqual({ attempted: 1, delivered: 1 });
    expect(rx.received[0]!.params).toMatchObject({ trade_no: o.trade_no, status: "2" });
    expect(await devPay(h.gw, o.trade_no)).toMatchObject({ ok: false, status: 409 });
    expect(await devPay(h.gw, "20260101000000000000")).toMatchObject({ ok: false, status: 404 });
  });

  test("pay picks a pay type for an order still waiting for the payer's pick: the one given, else alipay", async () => {
    const merchant = (await h.gw.store.getMerchant(1001))!;
    const make = async (out: string) => {
      const r = await coreCreate(h.gw, merchant, { pid: 1001, outTradeNo: out, family: "hashpay", payType: "", name: "VIP", amount: 500, notifyUrl: "", returnUrl: "", param: "", clientip: "", device: "pc", extra: {} });
      if (!r.ok) throw new Error(r.reason);
      return r.order.tradeNo;
    };
    const a = await make("P-1");
    expect(await devPay(h.gw, a)).toMatchObject({ ok: true, order: { payType: "alipay", status: 2 } });
    const b = await make("P-2");
    expect(await devPay(h.gw, b, { payType: "qqpay" })).toMatchObject({ ok: true, order: { payType: "qqpay", status: 2 } });
    const c = await make("P-3");
    expect(await devPay(h.gw, c, { payType: "bank" })).toMatchObject({ ok: false, status: 422 });
    expect((await h.gw.store.getOrder(c))!.status).toBe(1);
  });

  test("fail stores a report of the amount + 0.01 naming the order: unmatched, nothing paid, no notification", async () => {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    const r = await devFail(h.gw, o.trade_no);
    expect(r).toMatchObject({ ok: true, outcome: "unmatched", order: { status: 1 } });
    if (r.ok) expect(r.reason).toBe(`amount 1001 differs from order ${o.trade_no} (1000)`);
    const [report] = await h.gw.store.listReports({ pid: 1001 });
    expect(report).toMatchObject({ kind: "amount", client: "dev", amount: 1001, outcome: "unmatched" });
    expect(await h.gw.store.getNotification(o.trade_no)).toBeNull();
    // The order can still be paid afterwards, as after a real wrong payment.
    expect(await devPay(h.gw, o.trade_no)).toMatchObject({ ok: true });
    expect(await devFail(h.gw, o.trade_no)).toMatchObject({ ok: false, status: 409 });
  });

  test("expire ends a pending order now (status 4, expire_time now); a paid one is left alone", async () => {
    const o = await createOrder(h);
    h.clock.advance(10);
    const r = await devExpire(h.gw, o.trade_no);
    expect(r).toMatchObject({ ok: true, order: { status: 4, expireTime: h.clock.now() } });
    expect(await devExpire(h.gw, o.trade_no)).toMatchObject({ ok: false, status: 409 });
    // A late payment within the match window still counts, as for an order the sweeper timed out.
    expect(await devPay(h.gw, o.trade_no)).toMatchObject({ ok: true, order: { status: 2 } });
    expect(await devExpire(h.gw, o.trade_no)).toMatchObject({ ok: false, status: 409, order: { status: 2 } });
    expect(await devExpire(h.gw, "20260101000000000000")).toMatchObject({ ok: false, status: 404 });
  });
});

describe("retry schedule", () => {
  test("injectable: the dev schedule retries after 1 s, 2 s, 5 s ...; the default stays the spec's", () => {
    expect(nextRetryAt(1, 0, DEV_RETRY_DELAYS_S)).toBe(1000);
    expect(nextRetryAt(3, 0, DEV_RETRY_DELAYS_S)).toBe(5000);
    expect(nextRetryAt(DEV_RETRY_DELAYS_S.length + 1, 0, DEV_RETRY_DELAYS_S)).toBeNull();
    expect(nextRetryAt(1, 0)).toBe(RETRY_DELAYS_S[0] * 1000);
  });

  test("delivery with the dev schedule: due again after 1 s, failed after 9 attempts", async () => {
    rx = startReceiver(["fail"]);
    const o = await createOrder(h, { notify_url: rx.url });
    await devPay(h.gw, o.trade_no);
    const options = { retryDelaysS: DEV_RETRY_DELAYS_S };
    expect((await deliverDue(h.gw, options)).attempted).toBe(1);
    expect((await h.gw.store.getNotification(o.trade_no))!.nextAttemptAt).toBe(h.clock.nowMs() + 1000);
    for (const delay of DEV_RETRY_DELAYS_S) {
      h.clock.advance(delay);
      expect((await deliverDue(h.gw, options)).attempted).toBe(1);
    }
    const n = (await h.gw.store.getNotification(o.trade_no))!;
    expect([n.status, n.attempts]).toEqual(["failed", DEV_RETRY_DELAYS_S.length + 1]);
  });
});
