// Issue 21: account choice and the payable-amount slots against the real store, through the native
// create route: which accounts are candidates, which slots are taken (pending, and ended within
// the match window: timed out, closed, paid), both window edges, the offset direction and bound.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type AllocationPolicy, allocationRule, type AllocationView, type CandidateAccount } from "../../src/core/allocation.ts";
import { startOfDay } from "../../src/core/ids.ts";
import { payOrder } from "../../src/core/pay-order.ts";
import { harness, type Harness, postJson, seed, signed } from "../helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h); // merchant 1001 and shared alipay account 1
});
afterEach(() => h.close());

let n = 0;
/** A native create; `ta` is the payable amount in cents, or the failure reason. */
async function create(money: string, o: Record<string, string | number> = {}) {
  const { body } = await postJson(h, "/xpay/order/create", signed({ pid: 1001, pay_type: "alipay", name: "n", money, out_trade_no: `S${++n}`, ...o }));
  if (body.code !== 200) return { ok: false as const, reason: String(body.msg), tradeNo: "", ta: 0, account: 0 };
  const order = (await h.gw.store.getOrder(body.data.trade_no))!;
  return { ok: true as const, reason: "", tradeNo: order.tradeNo, ta: order.tradeAmount!, account: order.accountId! };
}
const setting = async (k: string, v: string) => {
  await h.gw.store.setSetting(k, v);
  h.gw.forgetSettings();
};
const cancel = (tradeNo: string) => postJson(h, "/xpay/order/cancel", signed({ pid: 1001, order_id: tradeNo, timestamp: h.clock.now() }));
const addAccount = (o: Record<string, unknown> = {}) =>
  h.gw.store.addChannel({ pid: 0, payType: "alipay", code: "alipay_qr", name: `acc${++n}`, qrcode: "https://qr.alipay.com/x", now: h.clock.now(), ...o });

describe("payable amount slots", () => {
  test("downwards one cent at a time, at most max_offset away, never 0", async () => {
    const tas = [];
    for (let i = 0; i < 11; i++) tas.push((await create("1.00")).ta);
    expect(tas).toEqual([100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90]);
    expect(await create("1.00")).toMatchObject({ ok: false, reason: expect.stringContaining("no free payable amount") });
    await setting("max_offset_percent", "100"); // the relative bound aside (offset-bound.test.ts): 0.01 is the floor
    expect((await create("0.02")).ta).toBe(2);
    expect((await create("0.02")).ta).toBe(1);
    expect(await create("0.02")).toMatchObject({ ok: false, reason: expect.stringContaining("no free payable amount") }); // 0.00 is never a payable amount
  });

  test("upwards when offset_direction is up; max_offset 0 allows the exact amount only", async () => {
    await setting("offset_direction", "up");
    expect([(await create("1.00")).ta, (await create("1.00")).ta, (await create("1.00")).ta]).toEqual([100, 101, 102]);
    await setting("max_offset", "0");
    expect((await create("2.00")).ta).toBe(200);
    expect((await create("2.00")).ok).toBe(false);
  });

  test("a slot ends with the match window after expiry, closing and payment; both edges", async () => {
    const pending = await create("5.00");
    const closed = await create("6.00");
    const paid = await create("7.00");
    await cancel(closed.tradeNo);
    await payOrder(h.gw, paid.tradeNo);
    h.clock.advance(900 + 600); // pending expired, closed and paid ended, exactly 600 s ago... for the pending one
    expect((await create("5.00")).ta).toBe(499); // expired exactly match_window ago: still held
    h.clock.advance(1);
    expect((await create("5.00")).ta).toBe(500); // one second more: free
    expect((await create("6.00")).ta).toBe(600); // closed 1501 s ago
    expect((await create("7.00")).ta).toBe(700); // paid 1501 s ago
  });

  test("closed and paid orders hold their slot inside the window, to its last second", async () => {
    const closed = await create("6.00");
    const paid = await create("7.00");
    await cancel(closed.tradeNo);
    await payOrder(h.gw, paid.tradeNo);
    h.clock.advance(600);
    expect((await create("6.00")).ta).toBe(599);
    expect((await create("7.00")).ta).toBe(699);
    h.clock.advance(1);
    expect((await create("6.00")).ta).toBe(600);
    expect((await create("7.00")).ta).toBe(700);
  });

  test("a swept order (status 4) holds its slot like a pending one past expiry", async () => {
    await create("8.00");
    h.clock.advance(900);
    expect(await h.gw.store.expireOrders(h.clock.now())).toBe(1);
    expect((await create("8.00")).ta).toBe(799);
    h.clock.advance(601);
    expect((await create("8.00")).ta).toBe(800);
  });

  test("slots are per account: another account takes the same amount", async () => {
    const other = await addAccount({ sort: 1 });
    const a = await create("3.00");
    await h.gw.store.updateChannel(1, { enabled: false });
    const b = await create("3.00");
    expect([a.account, a.ta]).toEqual([1, 300]);
    expect([b.account, b.ta]).toEqual([other.id, 300]);
  });
});

describe("candidate accounts", () => {
  test("enabled, the pay type, owned by the merchant or shared; never another merchant's", async () => {
    await h.gw.store.addMerchant({ pid: 1002, name: "B", secret: "x".repeat(32), now: h.clock.now() });
    await h.gw.store.updateChannel(1, { enabled: false });
    expect(await create("1.00")).toMatchObject({ ok: false, reason: expect.stringContaining("no enabled account for pay type alipay") });
    await addAccount({ pid: 1002 });
    await addAccount({ payType: "wxpay" });
    expect((await create("1.00")).ok).toBe(false);
    const own = await addAccount({ pid: 1001 });
    expect(await create("1.00")).toMatchObject({ ok: true, account: own.id });
  });

  test("min and max bounds are inclusive; 0 means no bound", async () => {
    const bounded = await addAccount({ minAmount: 100, maxAmount: 200 });
    await h.gw.store.updateChannel(1, { enabled: false });
    expect(await create("0.99")).toMatchObject({ ok: false, reason: expect.stringContaining("amount below every account's minimum") });
    expect(await create("2.01")).toMatchObject({ ok: false, reason: expect.stringContaining("amount above every account's maximum") });
    expect(await create("1.00")).toMatchObject({ ok: true, account: bounded.id });
    expect(await create("2.00")).toMatchObject({ ok: true, account: bounded.id });
  });

  test("the daily limit counts today's paid trade_amounts only, and is inclusive", async () => {
    const limited = await addAccount({ dayAmount: 1000 });
    await h.gw.store.updateChannel(1, { enabled: false });
    const first = await create("6.00");
    expect(first.account).toBe(limited.id);
    const unpaid = await create("3.00"); // pending: does not count
    expect(unpaid.ok).toBe(true);
    await payOrder(h.gw, first.tradeNo);
    expect(await create("4.01")).toMatchObject({ ok: false, reason: expect.stringContaining("daily limit reached on every account") });
    expect(await create("4.00")).toMatchObject({ ok: true, account: limited.id });
    // The next day (UTC+8 midnight) the sum starts again.
    h.clock.advance(startOfDay(h.clock.now()) + 86400 - h.clock.now());
    expect(await create("9.00")).toMatchObject({ ok: true, account: limited.id });
  });

  test("sort first, then least recently used, then id", async () => {
    const low = await addAccount({ sort: -1 });
    const second = await addAccount({ sort: -1 });
    expect((await create("1.00")).account).toBe(low.id);
    expect((await create("1.00")).account).toBe(second.id);
    expect((await create("1.00")).account).toBe(low.id);
  });

  test("require_online_client: only accounts seen within heartbeat_timeout, its edge included", async () => {
    await setting("require_online_client", "1");
    expect(await create("1.00")).toMatchObject({ ok: false, reason: expect.stringContaining("no account has an online monitoring client") });
    await h.gw.store.updateChannel(1, { lastSeenAt: h.clock.now() });
    h.clock.advance(90);
    expect((await create("1.00")).ok).toBe(true);
    h.clock.advance(1);
    expect((await create("1.00")).ok).toBe(false);
  });

  test("a misfit account is skipped for the next one; the last reason is told", async () => {
    await addAccount({ maxAmount: 50, sort: -2 });
    const fallback = await create("1.00");
    expect(fallback).toMatchObject({ ok: true, account: 1 });
  });
});

describe("the allocation rule over a fake view", () => {
  const acc = (id: number, o: Partial<CandidateAccount> = {}) => ({ id, sort: 0, useSeq: 0, minAmount: 0, maxAmount: 0, dayAmount: 0, lastSeenAt: 0, paidToday: 0, ...o }) as CandidateAccount;
  const policy: AllocationPolicy = { maxOffset: 10, maxOffsetPercent: 100, direction: "down", matchWindow: 600, requireOnline: false, heartbeatTimeout: 90 };
  const o = { pid: 1001, payType: "alipay", amount: 1000, now: 1_800_000_000, dayStart: 0 };

  test("equal sort and use: the lowest id, whatever order the store lists them in", () => {
    const v: AllocationView = { candidateAccounts: () => [acc(9), acc(7), acc(8)], takenTradeAmounts: () => new Set() };
    expect(allocationRule(o, policy)(v)).toMatchObject({ ok: true, account: { id: 7 }, tradeAmount: 1000 });
  });

  test("max_offset inside the near range: the taken amounts are read once, even when all are taken", () => {
    const reads: { min: number; max: number }[] = [];
    const v: AllocationView = {
      candidateAccounts: () => [acc(1)],
      takenTradeAmounts: (_a, since, range) => {
        expect(since).toBe(o.now - 600);
        reads.push(range);
        return new Set(Array.from({ length: 11 }, (_, i) => 1000 - i));
      },
    };
    expect(allocationRule(o, policy)(v)).toEqual({ ok: false, reason: "no free payable amount on any account; try again later" });
    expect(reads).toEqual([{ min: 990, max: 1000 }]);
    reads.length = 0;
    expect(allocationRule(o, { ...policy, maxOffset: 16 })(v)).toMatchObject({ ok: true, tradeAmount: 989 });
    expect(reads).toEqual([{ min: 984, max: 1000 }]);
  });
});
