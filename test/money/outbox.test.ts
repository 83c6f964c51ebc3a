// Issue 21: the notification outbox against the real store (claim with a lease, record, requeue,
// next due), the retry schedule, the stored response's first bytes and each family's
// acknowledgement check.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { firstBytes, MAX_ATTEMPTS, nextRetryAt, RETRY_DELAYS_S } from "../../src/core/notify/schedule.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import type { AttemptOutcome } from "../../src/core/store.ts";
import { epayV1Notifier, isPlainSuccess } from "../../src/protocols/epay-v1/codec.ts";
import { epayV2Notifier } from "../../src/protocols/epay-v2/codec.ts";
import { hashpayNotifier } from "../../src/protocols/hashpay/codec.ts";
import { nativeNotifier } from "../../src/protocols/native/codec.ts";
import { harness, type Harness, SECRET, seed } from "../helpers.ts";
import { createOrder } from "../report/util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h, { max: 1_000_000 });
});
afterEach(() => h.close());

const store = () => h.gw.store;
async function paidWithNotification(money: string, pid = 1001) {
  const o = await createOrder(h, { money, notify_url: "http://127.0.0.1:9/n", pid: String(pid) });
  const r = await payOrder(h.gw, o.trade_no);
  if (r.kind !== "paid" || r.notificationId === null) throw new Error("not paid");
  return { tradeNo: o.trade_no, id: r.notificationId };
}
const outcome = (o: Partial<AttemptOutcome["attempt"]> & { status: AttemptOutcome["status"]; next: number }): AttemptOutcome => ({
  attempt: { attemptedAt: o.attemptedAt ?? 1, durationMs: o.durationMs ?? 2, httpStatus: o.httpStatus ?? 500, body: o.body ?? "fail", error: o.error ?? "", acknowledged: o.acknowledged ?? false },
  status: o.status,
  nextAttemptAt: o.next,
});

describe("outbox", () => {
  test("claims due rows oldest first, up to the limit, each under a lease that ends on its last millisecond", async () => {
    const t0 = h.clock.nowMs();
    const a = await paidWithNotification("1.00");
    h.clock.advance(1);
    const b = await paidWithNotification("2.00");
    h.clock.advance(1);
    const c = await paidWithNotification("3.00");
    const now = h.clock.nowMs();
    expect((await store().claimDueNotifications(t0 - 1, 10, 1000)).length).toBe(0); // not due yet
    expect((await store().claimDueNotifications(now, 2, 1000)).map((n) => n.tradeNo)).toEqual([a.tradeNo, b.tradeNo]);
    expect((await store().claimDueNotifications(now, 10, 1000)).map((n) => n.tradeNo)).toEqual([c.tradeNo]);
    expect(await store().claimDueNotifications(now + 999, 10, 1000)).toEqual([]); // leased
    expect(await store().nextNotificationDue()).toBe(now + 1000);
    expect((await store().claimDueNotifications(now + 1000, 10, 1000)).length).toBe(3); // the lease ran out
  });

  test("a recorded attempt: counted, rescheduled, lease released; delivered_at only when delivered", async () => {
    const { tradeNo, id } = await paidWithNotification("1.00");
    const now = h.clock.nowMs();
    await store().claimDueNotifications(now, 10, 60_000);
    await store().recordNotificationAttempt(id, outcome({ status: "pending", next: now + 15_000, attemptedAt: now, httpStatus: 500, body: "fail", error: "response is not an acknowledgement" }));
    let n = (await store().getNotification(tradeNo))!;
    expect(n).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: now + 15_000, deliveredAt: null });
    expect(await store().nextNotificationDue()).toBe(now + 15_000); // the lease is gone with the attempt
    expect(await store().claimDueNotifications(now + 14_999, 10, 1000)).toEqual([]);
    expect((await store().claimDueNotifications(now + 15_000, 10, 1000)).length).toBe(1);
    await store().recordNotificationAttempt(id, outcome({ status: "delivered", next: now + 15_000, attemptedAt: now + 15_000, httpStatus: 200, body: "success", acknowledged: true, durationMs: 7 }));
    n = (await store().getNotification(tradeNo))!;
    expect(n).toMatchObject({ status: "delivered", attempts: 2, deliveredAt: now + 15_000 });
    expect(n.attempts_log).toEqual([
      { attemptedAt: now, durationMs: 2, httpStatus: 500, body: "fail", error: "response is not an acknowledgement", acknowledged: false },
      { attemptedAt: now + 15_000, durationMs: 7, httpStatus: 200, body: "success", error: "", acknowledged: true },
    ]);
    expect(await store().nextNotificationDue()).toBeNull();
    expect(await store().claimDueNotifications(now + 10_000_000, 10, 1000)).toEqual([]);
  });

  test("failed rows are never claimed; requeue revives one at once; unknown trade_no is false", async () => {
    const { tradeNo, id } = await paidWithNotification("1.00");
    const now = h.clock.nowMs();
    await store().recordNotificationAttempt(id, outcome({ status: "failed", next: now }));
    expect(await store().claimDueNotifications(now + 1, 10, 1000)).toEqual([]);
    expect(await store().requeueNotification(tradeNo, now + 5)).toBe(true);
    expect(await store().getNotification(tradeNo)).toMatchObject({ status: "pending", nextAttemptAt: now + 5, attempts: 1 });
    expect(await store().claimDueNotifications(now + 4, 10, 1000)).toEqual([]);
    expect((await store().claimDueNotifications(now + 5, 10, 1000)).map((n) => n.tradeNo)).toEqual([tradeNo]);
    expect(await store().requeueNotification("nope", now)).toBe(false);
    expect(await store().getNotification("nope")).toBeNull();
  });

  test("list: newest first, by status, bounded", async () => {
    const a = await paidWithNotification("1.00");
    const b = await paidWithNotification("2.00");
    await store().recordNotificationAttempt(a.id, outcome({ status: "failed", next: 0 }));
    expect((await store().listNotifications({})).map((n) => n.tradeNo)).toEqual([b.tradeNo, a.tradeNo]);
    expect((await store().listNotifications({ status: "failed" })).map((n) => n.tradeNo)).toEqual([a.tradeNo]);
    expect((await store().listNotifications({ status: "pending" })).map((n) => n.tradeNo)).toEqual([b.tradeNo]);
    expect((await store().listNotifications({ limit: 1 })).map((n) => n.tradeNo)).toEqual([b.tradeNo]);
  });
});

describe("fair claim", () => {
  test("only admitted rows are leased, in due order, up to the limit; at most perMerchant read per merchant", async () => {
    await store().addMerchant({ pid: 1002, name: "B", secret: SECRET, now: h.clock.now() });
    await store().addChannel({ pid: 1002, payType: "alipay", code: "b_qr", name: "B's", qrcode: "https://qr.alipay.com/b", now: h.clock.now() });
    const a1 = await paidWithNotification("1.00");
    const a2 = await paidWithNotification("2.00");
    const a3 = await paidWithNotification("3.00");
    const b1 = await paidWithNotification("4.00", 1002);
    const now = h.clock.nowMs();
    const asked: number[] = [];
    const fair = (perMerchant: number, admit: (r: { id: number; pid: number }) => boolean) => ({ perMerchant, admit: (r: { id: number; pid: number; url: string }) => (asked.push(r.id), admit(r)) });
    expect((await store().claimDueNotifications(now, 10, 1000, fair(2, (r) => r.pid === 1002))).map((n) => n.tradeNo)).toEqual([b1.tradeNo]);
    expect(asked).toEqual([a1.id, a2.id, b1.id]); // a3 is past merchant 1001's two
    asked.length = 0;
    expect((await store().claimDueNotifications(now, 2, 1000, fair(10, () => true))).map((n) => n.tradeNo)).toEqual([a1.tradeNo, a2.tradeNo]);
    expect(asked).toEqual([a1.id, a2.id]); // the limit stops the reading
    expect((await store().claimDueNotifications(now, 10, 1000, fair(10, () => false)))).toEqual([]);
    expect((await store().claimDueNotifications(now, 10, 1000)).map((n) => n.tradeNo)).toEqual([a3.tradeNo]); // refused rows stayed unleased
  });

  test("a row another claimer leased after it was read is not returned", async () => {
    const a = await paidWithNotification("1.00");
    const b = await paidWithNotification("2.00");
    const now = h.clock.nowMs();
    let first = true;
    const fair = {
      perMerchant: 10,
      admit: (r: { id: number }) => {
        if (first) void store().claimDueNotifications(now, 1, 5000); // another worker takes the first row now
        first = false;
        return r.id > 0;
      },
    };
    expect((await store().claimDueNotifications(now, 10, 1000, fair)).map((n) => n.tradeNo)).toEqual([b.tradeNo]);
    expect((await store().getNotification(a.tradeNo))?.status).toBe("pending");
  });
});

describe("retry schedule", () => {
  test("every delay of the design, then give up", () => {
    expect(RETRY_DELAYS_S).toEqual([15, 15, 30, 180, 600, 1200, 1800, 1800, 1800, 3600, 10800, 10800, 10800, 21600, 21600]);
    expect(MAX_ATTEMPTS).toBe(16);
    RETRY_DELAYS_S.forEach((d, i) => expect(nextRetryAt(i + 1, 1000)).toBe(1000 + d * 1000));
    expect(nextRetryAt(16, 1000)).toBeNull();
    expect(nextRetryAt(0, 1000)).toBeNull();
  });

  test("first bytes: the whole short body; a long one cut at the limit, never inside a character", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(firstBytes(enc("success"))).toBe("success");
    expect(firstBytes(enc("a".repeat(600)))).toBe("a".repeat(512));
    expect(firstBytes(enc("a".repeat(512)))).toBe("a".repeat(512));
    expect(firstBytes(enc("abcd"), 3)).toBe("abc");
    expect(firstBytes(enc("a中b"), 2)).toBe("a"); // 中 is 3 bytes: cut before it
    expect(firstBytes(enc("a中b"), 3)).toBe("a");
    expect(firstBytes(enc("a中b"), 4)).toBe("a中");
    expect(firstBytes(enc("中"), 2)).toBe("");
    expect(firstBytes(enc("a😀"), 4)).toBe("a");
    expect(firstBytes(enc("a😀b"), 5)).toBe("a😀");
    expect(firstBytes(new Uint8Array([0x61, 0xff, 0x62]), 3)).toBe("a\uFFFDb"); // invalid bytes are replaced, not thrown
    expect(firstBytes(new Uint8Array([0x80, 0x80, 0x80, 0x80]), 3)).toBe(""); // only continuation bytes: nothing whole to keep
  });
});

describe("acknowledgements per family", () => {
  test("epay V1 and V2: the body is exactly success, after a BOM and surrounding whitespace", () => {
    for (const yes of ["success", " success\n", "\uFEFFsuccess", "\uFEFF success \r\n"]) expect(isPlainSuccess(yes)).toBe(true);
    for (const no of ["", "SUCCESS", "success!", "fail success", "succes", "x\uFEFFsuccess", "succ\uFEFFess"]) expect(isPlainSuccess(no)).toBe(false);
    expect(epayV1Notifier.isAcknowledged).toBe(isPlainSuccess);
    expect(epayV2Notifier.isAcknowledged("fail success")).toBe(false);
  });

  test("native: the body contains success", () => {
    for (const yes of ["success", '{"msg":"success"}', "successful"]) expect(nativeNotifier.isAcknowledged(yes)).toBe(true);
    for (const no of ["", "fail", "SUCCESS", "succes"]) expect(nativeNotifier.isAcknowledged(no)).toBe(false);
  });

  test("hash: the body contains success, 成功 or ok", () => {
    for (const yes of ["success", "成功", "ok", "处理成功", '{"result":"ok"}']) expect(hashpayNotifier.isAcknowledged(yes)).toBe(true);
    for (const no of ["", "fail", "OK", "失败", "succes", "o k"]) expect(hashpayNotifier.isAcknowledged(no)).toBe(false);
  });
});
