// Allocation through the store: the core's rule decides, the store shows it the accounts and the
// amounts held, and writes the choice. Unique slots, the match window, the round-robin, the limits.
import { expect, test } from "bun:test";
import { pinnedRule } from "../../src/core/create-order.ts";
import { account, create, createUnit, type Ctx, merchant, newOrder, payUnit, POLICY, T0 } from "./harness.ts";

export function allocationContract(ctx: Ctx): void {
  test("a rule pinned to one account (测试支付, issue 28) takes that account, not the first by sort", async () => {
    const s = ctx.store;
    await merchant(s);
    const first = await account(s);
    const second = await account(s);
    const pin = async (id: number) => {
      const unit = createUnit(newOrder({ notifyUrl: "" }));
      const r = await s.createOrder({ ...unit, allocate: pinnedRule(unit.allocate!, id) });
      if (r.kind === "error") throw new Error(r.reason);
      return r.order;
    };
    expect((await create(s)).accountId).toBe(first.id);
    const o = await pin(second.id);
    expect(o.accountId).toBe(second.id);
    expect(o.tradeAmount).toBe(1000);
    expect((await pin(second.id)).tradeAmount).toBe(999);
    expect(await pin(first.id + second.id + 100)).toMatchObject({ status: 5, failReason: "no enabled account for pay type alipay" });
  });

  test("each create takes the next free payable amount on the account; none is handed out twice", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const amounts: (number | null)[] = [];
    for (let i = 0; i < POLICY.maxOffset + 1; i++) amounts.push((await create(s)).tradeAmount);
    expect(amounts).toEqual([1000, 999, 998, 997, 996, 995, 994, 993, 992, 991, 990]);
    const full = await create(s);
    expect(full).toMatchObject({ status: 5, failReason: "no free payable amount on any account; try again later" });
  });

  test("upwards when the operator asks for it; a far offset beyond the first sixteen is searched too", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    expect((await create(s, {}, { policy: { direction: "up" } })).tradeAmount).toBe(1000);
    expect((await create(s, {}, { policy: { direction: "up" } })).tradeAmount).toBe(1001);
    for (let i = 0; i < 18; i++) await create(s, { amount: 500 }, { policy: { maxOffset: 30 } });
    expect((await create(s, { amount: 500 }, { policy: { maxOffset: 30 } })).tradeAmount).toBe(482);
  });

  test("an ended order holds its amount for the match window, then frees it", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const closed = await create(s);
    await s.closeOrder(closed.tradeNo, T0 + 10);
    const paid = await create(s);
    expect((await s.payOrder(payUnit(paid.tradeNo, T0 + 20))).kind).toBe("paid");
    // Within the window both amounts are held.
    expect((await create(s, {}, { now: T0 + 30 })).tradeAmount).toBe(998);
    // Past the window after each ended, they are free again (998 stays held: still pending).
    const later = T0 + 20 + POLICY.matchWindow + 1;
    expect((await create(s, {}, { now: later })).tradeAmount).toBe(1000);
    expect((await create(s, {}, { now: later })).tradeAmount).toBe(999);
  });

  test("accounts take turns in their sort order; a lower sort always comes first", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s);
    const b = await account(s);
    const turns = [];
    for (let i = 0; i < 4; i++) turns.push((await create(s, { amount: 1000 + i * 100 })).accountId);
    expect(turns).toEqual([a.id, b.id, a.id, b.id]);
    const first = await account(s, { sort: -1 });
    expect((await create(s, { amount: 5000 })).accountId).toBe(first.id);
    expect((await create(s, { amount: 5100 })).accountId).toBe(first.id);
    expect((await s.getChannel(first.id))!.useSeq).toBeGreaterThan((await s.getChannel(b.id))!.useSeq);
  });

  test("minimum, maximum and daily limit; disabled accounts and other merchants' accounts are never taken", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await account(s, { pid: 1002 });
    const off = await account(s, { pid: 1001 });
    await s.updateChannel(off.id, { enabled: false });
    expect(await create(s)).toMatchObject({ status: 5, failReason: "no enabled account for pay type alipay" });
    const own = await account(s, { pid: 1001, min: 500, max: 2000, day: 3000 });
    expect(await create(s, { amount: 400 })).toMatchObject({ status: 5, failReason: "amount below every account's minimum" });
    expect(await create(s, { amount: 2100 })).toMatchObject({ status: 5, failReason: "amount above every account's maximum" });
    const big = await create(s, { amount: 2000 });
    expect(big.accountId).toBe(own.id);
    await s.payOrder(payUnit(big.tradeNo, T0 + 5));
    expect((await create(s, { amount: 1000 })).accountId).toBe(own.id); // 2000 + 1000 <= 3000
    expect(await create(s, { amount: 1001 })).toMatchObject({ status: 5, failReason: "daily limit reached on every account" });
    const shared = await account(s, { pid: 0 });
    expect((await create(s, { amount: 1001 })).accountId).toBe(shared.id);
  });

  test("with online monitoring required, only an account seen within the heartbeat timeout", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s);
    const policy = { requireOnline: true };
    expect(await create(s, {}, { policy })).toMatchObject({ status: 5, failReason: "no account has an online monitoring client" });
    await s.recordClientSeen({ kind: "phone", pid: 1001, name: "p", channelId: a.id, extData: "", lastSeenAt: T0 - 10 }, [a.id]);
    expect((await create(s, {}, { policy })).accountId).toBe(a.id);
  });
}
