// Store.stats: income per range (paid by paid_at, created by created_at) and per account and
// merchant, the outbox gauge and the online clients of /metrics, and the write timings.
import { expect, test } from "bun:test";
import { account, create, type Ctx, merchant, payUnit, T0 } from "./harness.ts";

const HOUR = 3600;

export function statsContract(ctx: Ctx): void {
  const stats = () => ctx.store.stats;

  /** Alipay and WeChat accounts; orders created and paid at chosen times, failed and unpicked ones. */
  async function shop() {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    const ali = await account(s);
    const wx = await account(s, { payType: "wxpay" });
    const pay = async (o: { pid?: number; payType?: string; amount: number; created: number; paid?: number }) => {
      const order = await create(s, { pid: o.pid ?? 1001, payType: o.payType ?? "alipay", amount: o.amount }, { now: o.created, ttl: 10 * HOUR });
      if (o.paid !== undefined) expect((await s.payOrder(payUnit(order.tradeNo, o.paid))).kind).toBe("paid");
      return order;
    };
    const a = await pay({ amount: 500, created: T0 + 10, paid: T0 + 20 });
    const b = await pay({ amount: 700, created: T0 + 30, paid: T0 + HOUR + 5, pid: 1002, payType: "wxpay" }); // paid in the next hour
    await pay({ amount: 900, created: T0 + HOUR + 10 }); // pending
    await create(s, { payType: "" }, { now: T0 + 40 }); // the payer has not picked: no account
    const failed = await create(s, { payType: "qqpay" }, { now: T0 + 50 }); // no qqpay account: status 5
    expect(failed.status).toBe(5);
    return { ali: ali.id, wx: wx.id, a, b };
  }

  test("stats: income per range counts paid orders by paid_at and every order by created_at; [from, to); --pid narrows", async () => {
    const { a, b } = await shop();
    const edges = [T0, T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR];
    expect(await stats().incomeByRange({ edges })).toEqual([
      { paidCount: 1, paidAmount: a.tradeAmount!, created: 4 },
      { paidCount: 1, paidAmount: b.tradeAmount!, created: 1 },
      { paidCount: 0, paidAmount: 0, created: 0 },
    ]);
    expect(await stats().incomeByRange({ edges, pid: 1002 })).toEqual([
      { paidCount: 0, paidAmount: 0, created: 1 },
      { paidCount: 1, paidAmount: b.tradeAmount!, created: 0 },
      { paidCount: 0, paidAmount: 0, created: 0 },
    ]);
    // The edge itself belongs to the later range, also when it falls inside an hour (those minutes are read from orders).
    expect(await stats().incomeByRange({ edges: [T0 + 20, T0 + 30, T0 + 31] })).toEqual([
      { paidCount: 1, paidAmount: a.tradeAmount!, created: 0 },
      { paidCount: 0, paidAmount: 0, created: 1 },
    ]);
    const c = await create(ctx.store, { amount: 300 }, { now: T0 + 900 });
    expect((await ctx.store.payOrder(payUnit(c.tradeNo, T0 + 1799))).kind).toBe("paid");
    expect(await stats().incomeByRange({ edges: [T0, T0 + 900, T0 + 1800] })).toEqual([
      { paidCount: 1, paidAmount: a.tradeAmount!, created: 4 },
      { paidCount: 1, paidAmount: c.tradeAmount!, created: 1 },
    ]);
    // Ranges across hours and days (whole ones from the rollup, the minutes at the ends from orders).
    const paid3 = a.tradeAmount! + b.tradeAmount! + c.tradeAmount!;
    expect(await stats().incomeByRange({ edges: [T0 + 20, T0 + HOUR + 7] })).toEqual([{ paidCount: 3, paidAmount: paid3, created: 4 }]);
    expect(await stats().incomeByRange({ edges: [T0 - 2 * 86400 + 5, T0 + 2 * HOUR, T0 + 3 * 86400 + 1] })).toEqual([
      { paidCount: 3, paidAmount: paid3, created: 6 },
      { paidCount: 0, paidAmount: 0, created: 0 },
    ]);
  });

  test("stats: per account and merchant, only pairs with orders; orders without an account per their pay type", async () => {
    const { ali, wx, a, b } = await shop();
    const rows = await stats().incomeByAccount({ from: T0, to: T0 + HOUR });
    const sorted = rows.sort((x, y) => x.pid - y.pid || x.payType.localeCompare(y.payType));
    expect(sorted).toEqual([
      { accountId: null, pid: 1001, payType: "", paidCount: 0, paidAmount: 0, created: 1 },
      { accountId: ali, pid: 1001, payType: "alipay", paidCount: 1, paidAmount: a.tradeAmount!, created: 1 },
      { accountId: null, pid: 1001, payType: "qqpay", paidCount: 0, paidAmount: 0, created: 1 },
      { accountId: wx, pid: 1002, payType: "wxpay", paidCount: 0, paidAmount: 0, created: 1 },
    ]);
    // Paid in the range but created before it: a row with created 0.
    expect(await stats().incomeByAccount({ from: T0 + HOUR, to: T0 + 2 * HOUR, pid: 1002 })).toEqual([
      { accountId: wx, pid: 1002, payType: "wxpay", paidCount: 1, paidAmount: b.tradeAmount!, created: 0 },
    ]);
    expect(await stats().incomeByAccount({ from: T0 + 5 * HOUR, to: T0 + 6 * HOUR })).toEqual([]);
  });

  test("stats: the outbox gauge counts pending and due notifications and names the oldest due", async () => {
    const s = ctx.store;
    expect(await stats().outbox(T0 * 1000)).toEqual({ pending: 0, due: 0, oldestDueMs: null });
    await merchant(s);
    await account(s);
    for (let i = 0; i < 3; i++) {
      const o = await create(s, { amount: 1000 + i * 100 });
      await s.payOrder({ ...payUnit(o.tradeNo), nowMs: T0 * 1000 + i * 1000 });
    }
    expect(await stats().outbox(T0 * 1000 + 1500)).toEqual({ pending: 3, due: 2, oldestDueMs: T0 * 1000 });
    const [first] = await s.claimDueNotifications(T0 * 1000 + 1500, 1, 60_000);
    const attempt = { attemptedAt: T0 * 1000 + 1600, durationMs: 5, httpStatus: 200, body: "success", error: "", acknowledged: true };
    await s.recordNotificationAttempt(first!.id, { attempt, status: "delivered", nextAttemptAt: T0 * 1000 + 1600 });
    expect(await stats().outbox(T0 * 1000 + 1500)).toEqual({ pending: 2, due: 1, oldestDueMs: T0 * 1000 + 1000 });
  });

  test("stats: clients online are those seen at or after the cut", async () => {
    const s = ctx.store;
    const seen = (name: string, at: number) => s.recordClientSeen({ kind: "phone", pid: 1001, name, channelId: null, extData: "", lastSeenAt: at }, []);
    await seen("p1", T0 - 100);
    await seen("p2", T0 - 90);
    await seen("p3", T0);
    expect(await stats().clientsOnline(T0 - 90)).toBe(2);
    expect(await stats().clientsOnline(T0 + 1)).toBe(0);
  });

  test("stats: observeWrites hears the store's write transactions of creates until it is stopped", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const heard: number[] = [];
    const stop = stats().observeWrites((sec) => heard.push(sec));
    await create(s, { amount: 1000 });
    expect(heard.length).toBeGreaterThanOrEqual(1);
    expect(heard.every((x) => x >= 0 && x < 60)).toBe(true);
    stop();
    const before = heard.length;
    await create(s, { amount: 1100 });
    expect(heard.length).toBe(before);
  });
}
