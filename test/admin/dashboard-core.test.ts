// The core pieces the dashboard reads (issue 17): the accounts near their daily limit on the
// limit's own day, monitoring clients online within heartbeat_timeout (the rule `xpay client list`
// shares), and the attention list's window, failure threshold and "more" flags.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ATTENTION_DAYS, attentionList, DEFAULT_FAILING_ATTEMPTS } from "../../src/core/browse/attention.ts";
import { startOfDay } from "../../src/core/ids.ts";
import { parseYuan } from "../../src/core/money.ts";
import { clientStates } from "../../src/core/monitor-clients.ts";
import { accountsNearDayLimit } from "../../src/core/stats/day-limits.ts";
import type { SqliteStore } from "../../src/store/sqlite/index.ts";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";

let h: Harness;
let ali: number;
beforeEach(async () => {
  h = harness();
  ali = (await seed(h, { day: 10_000 })).account.id;
});
afterEach(() => h.close());

/** 2026-11-23 12:00 in China time (UTC+8), unix seconds: the limit's day began at DAY - 12 h. */
const NOON = Date.UTC(2026, 10, 23, 4) / 1000;
let n = 0;
function paid(account: number, amount: number, paidAt: number, status = 2) {
  n++;
  (h.gw.store as SqliteStore).db
    .query(
      `INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, created_at, expire_time, paid_at)
       VALUES (?, 1001, ?, 'native', 'alipay', 'x', ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(`T${n}`, `O${n}`, amount, amount, account, status, paidAt - 60, paidAt + 840, status === 2 ? paidAt : null);
}

describe("daily limits", () => {
  /** The harness clock at NOON (China time). */
  const atNoon = () => h.clock.advance(NOON - h.clock.now());

  test("an account counts from 80 % of its limit on the limit's day (China time), paid orders only", async () => {
    atNoon();
    expect(startOfDay(NOON)).toBe(NOON - 12 * 3600);
    paid(ali, 5000, NOON - 12 * 3600); // 00:00:00 today: counts
    paid(ali, 3000, NOON - 12 * 3600 - 1); // 23:59:59 yesterday: does not
    paid(ali, 2000, NOON - 600, 4); // timed out: does not
    paid(ali, 1000, NOON); // this very second: counts
    expect(await accountsNearDayLimit(h.gw)).toEqual([]); // 60 %
    paid(ali, 1999, NOON);
    expect(await accountsNearDayLimit(h.gw)).toEqual([]); // 79.99 %
    paid(ali, 1, NOON);
    expect((await accountsNearDayLimit(h.gw)).map((a) => [a.account.id, a.paidToday, a.dayUsed])).toEqual([[ali, 8000, 0.8]]);
  });

  test("accounts without a limit or disabled are not near it; the fullest comes first", async () => {
    atNoon();
    const free = (await h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "free", name: "Free", qrcode: "https://qr.alipay.com/f", now: NOON })).id;
    const small = (await h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "small", name: "Small", qrcode: "https://qr.alipay.com/s", dayAmount: 1000, now: NOON })).id;
    const off = (await h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "off", name: "Off", qrcode: "https://qr.alipay.com/o", dayAmount: 1000, now: NOON })).id;
    paid(free, 99_000, NOON);
    paid(small, 1200, NOON); // over: 120 %
    paid(off, 1000, NOON);
    paid(ali, 9000, NOON);
    await h.gw.store.updateChannel(off, { enabled: false });
    expect((await accountsNearDayLimit(h.gw)).map((a) => a.account.id)).toEqual([small, ali]);
    expect((await accountsNearDayLimit(h.gw, { share: 1 })).map((a) => a.account.id)).toEqual([small]);
  });
});

describe("monitoring clients", () => {
  test("online while the last beat is at most heartbeat_timeout old; never seen is offline", async () => {
    const now = h.clock.now();
    await h.gw.store.recordClientSeen({ kind: "phone", pid: 1001, name: "phone-1", channelId: ali, extData: "", lastSeenAt: now - 90 }, [ali]);
    await h.gw.store.recordClientSeen({ kind: "phone", pid: 1001, name: "phone-2", channelId: ali, extData: "", lastSeenAt: now - 91 }, [ali]);
    await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: "vmq-1", key: "k".repeat(32), accountIds: [], now });
    const s = await clientStates(h.gw, now);
    expect(s.heartbeatTimeout).toBe(90);
    const by = Object.fromEntries(s.clients.map((c) => [c.name, [c.online, c.silentFor]]));
    expect(by).toEqual({ "phone-1": [true, 90], "phone-2": [false, 91], "vmq-1": [false, null] });
  });
});

describe("attention", () => {
  test("looks back seven days, shows at most `limit` rows and says when there are more", async () => {
    for (const amount of [101, 102, 103]) expect((await amountReport(h, amount)).body.data.outcome).toBe("unmatched");
    const a = await attentionList(h.gw, { limit: 2 });
    expect(a.rows.unmatchedReports.map((r) => r.amount)).toEqual([103, 102]);
    expect(a.more).toEqual({ unmatchedReports: true, notPayments: false, failingNotifications: false, latePayments: false, creationFailures: false });
    expect((await attentionList(h.gw, { limit: 3 })).more.unmatchedReports).toBe(false);
    expect(a.since).toBe(h.clock.now() - ATTENTION_DAYS * 86400);
    expect((await attentionList(h.gw, { now: h.clock.now() + ATTENTION_DAYS * 86400 + 1 })).rows.unmatchedReports).toEqual([]);
  });

  test("a notification given up is listed at once, a delivered one never, a pending one after the threshold", async () => {
    const paidWithNotification = async (money: string) => {
      const o = await createOrder(h, { money, notify_url: "http://127.0.0.1:9/n" });
      expect((await amountReport(h, parseYuan(o.trade_amount)!)).body.data.outcome).toBe("matched");
      return (await h.gw.store.getNotification(o.trade_no))!;
    };
    const attempt = (httpStatus: number) => ({ attemptedAt: h.clock.nowMs(), durationMs: 5, httpStatus, body: "", error: "", acknowledged: httpStatus === 200 });
    const givenUp = await paidWithNotification("10.00");
    const delivered = await paidWithNotification("11.00");
    const retrying = await paidWithNotification("12.00");
    await h.gw.store.recordNotificationAttempt(givenUp.id, { attempt: attempt(502), status: "failed", nextAttemptAt: 0 });
    for (let i = 0; i < 6; i++) await h.gw.store.recordNotificationAttempt(delivered.id, { attempt: attempt(500), status: "pending", nextAttemptAt: h.clock.nowMs() });
    await h.gw.store.recordNotificationAttempt(delivered.id, { attempt: attempt(200), status: "delivered", nextAttemptAt: 0 });
    for (let i = 0; i < 4; i++) await h.gw.store.recordNotificationAttempt(retrying.id, { attempt: attempt(503), status: "pending", nextAttemptAt: h.clock.nowMs() });
    const list = async () => (await attentionList(h.gw)).rows.failingNotifications.map((n) => [n.tradeNo, n.status, n.lastError]);
    expect(await list()).toEqual([[givenUp.tradeNo, "failed", "HTTP 502"]]);
    await h.gw.store.recordNotificationAttempt(retrying.id, { attempt: attempt(503), status: "pending", nextAttemptAt: h.clock.nowMs() });
    expect(await list()).toEqual([[retrying.tradeNo, "pending", "HTTP 503"], [givenUp.tradeNo, "failed", "HTTP 502"]]);
  });

  test("a notification is failing after alert_notify_failures attempts, or after the default when that alert is off", async () => {
    expect((await attentionList(h.gw)).minAttempts).toBe(5);
    await h.gw.store.setSetting("alert_notify_failures", "3");
    h.gw.forgetSettings();
    expect((await attentionList(h.gw)).minAttempts).toBe(3);
    await h.gw.store.setSetting("alert_notify_failures", "0");
    h.gw.forgetSettings();
    expect((await attentionList(h.gw)).minAttempts).toBe(DEFAULT_FAILING_ATTEMPTS);
  });
});
