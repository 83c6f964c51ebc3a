// Several instances on one database (several `xpay serve` processes): what one instance promises
// must hold when the competing units come from different instances at the same moment. On SQLite
// the instances are connections to one file; on PostgreSQL, separate connection pools.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store.ts";
import { account, claim, create, createUnit, type Ctx, merchant, newOrder, payUnit, settleUnit, T0 } from "./harness.ts";
import { paidOrders } from "./outbox.contract.ts";

async function instances(ctx: Ctx, n: number): Promise<Store[]> {
  const all = [ctx.store];
  while (all.length < n) all.push(await ctx.another());
  return all;
}

export function concurrencyContract(ctx: Ctx): void {
  test("creates on three instances at once never share a payable amount on an account", async () => {
    const all = await instances(ctx, 3);
    await merchant(ctx.store);
    await account(ctx.store);
    await account(ctx.store);
    const made = await Promise.all(Array.from({ length: 36 }, (_, i) => create(all[i % 3]!, {}, { policy: { maxOffset: 20 } })));
    expect(made.every((o) => o.status === 1)).toBe(true);
    const slots = made.map((o) => `${o.accountId}/${o.tradeAmount}`);
    expect(new Set(slots).size).toBe(36);
    const perAccount = new Map<number, number>();
    for (const o of made) perAccount.set(o.accountId!, (perAccount.get(o.accountId!) ?? 0) + 1);
    expect([...perAccount.values()].every((n) => n >= 10)).toBe(true); // both accounts took turns
  });

  test("one out_trade_no created at once on three instances is one order, returned to every caller", async () => {
    const all = await instances(ctx, 3);
    await merchant(ctx.store);
    await account(ctx.store);
    const o = newOrder({ outTradeNo: "SAME" });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => all[i % 3]!.createOrder(createUnit(o))));
    const trades = new Set(results.map((r) => (r.kind === "error" ? r.reason : r.order.tradeNo)));
    expect(trades.size).toBe(1);
    expect(results.filter((r) => r.kind === "created").length).toBe(1);
    expect((await ctx.store.listOrders({})).length).toBe(1);
  });

  test("fifty copies of one report at three instances pay once and queue one notification", async () => {
    const all = await instances(ctx, 3);
    await merchant(ctx.store);
    await account(ctx.store);
    const o = await create(ctx.store);
    const keyed = await Promise.all(Array.from({ length: 50 }, (_, i) => all[i % 3]!.settleReport(settleUnit(claim(), { dedupeKey: "one-payment" }))));
    expect(keyed.filter((r) => r.outcome === "matched").length).toBe(1);
    expect(keyed.filter((r) => r.outcome === "duplicate").length).toBe(49);
    const other = await create(ctx.store, { amount: 2000 });
    // Re-sent copies with a fresh dedupe key each (a phone that stamps every send): the order's row decides.
    const fresh = await Promise.all(Array.from({ length: 50 }, (_, i) => all[i % 3]!.settleReport(settleUnit(claim({ amount: 2000 }), { dedupeKey: `copy-${i}` }))));
    expect(fresh.filter((r) => r.pay?.kind === "paid").length).toBe(1);
    expect((await ctx.store.listNotifications({})).map((n) => n.tradeNo).sort()).toEqual([o.tradeNo, other.tradeNo].sort());
  });

  test("payments of one order at once on three instances: one paid, one notification", async () => {
    const all = await instances(ctx, 3);
    await merchant(ctx.store);
    await account(ctx.store);
    const o = await create(ctx.store);
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => all[i % 3]!.payOrder(payUnit(o.tradeNo))));
    expect(results.filter((r) => r.kind === "paid").length).toBe(1);
    expect(results.filter((r) => r.kind === "already_paid").length).toBe(14);
    expect((await ctx.store.listNotifications({})).length).toBe(1);
  });

  test("each due notification is claimed by exactly one instance; a crashed claimer's rows return after the lease", async () => {
    const all = await instances(ctx, 3);
    await merchant(ctx.store);
    await account(ctx.store);
    await paidOrders(ctx.store, 30);
    const now = T0 * 1000 + 100;
    const rounds = await Promise.all(all.flatMap((s) => [s.claimDueNotifications(now, 7, 30_000), s.claimDueNotifications(now, 7, 30_000)]));
    const ids = rounds.flat().map((n) => n.id);
    expect(ids.length).toBe(30);
    expect(new Set(ids).size).toBe(30);
    // Nobody recorded an attempt (every claimer "crashed"): within the lease nothing is due...
    expect(await all[1]!.claimDueNotifications(now + 29_999, 100, 30_000)).toEqual([]);
    // ...after it, another instance takes them all, once.
    const again = await Promise.all(all.map((s) => s.claimDueNotifications(now + 30_000, 100, 30_000)));
    expect(again.flat().length).toBe(30);
  });

  test("expiry sweeps on three instances at once expire each order once", async () => {
    const all = await instances(ctx, 3);
    await merchant(ctx.store);
    await account(ctx.store);
    for (let i = 0; i < 20; i++) await create(ctx.store, { amount: 1000 + i * 20 });
    const counts = await Promise.all(all.map((s) => s.expireOrders(T0 + 900)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(20);
    expect((await ctx.store.listOrders({ status: 4, limit: 100 })).length).toBe(20);
  });

  test("a merchant changed on one instance is seen by another within a second", async () => {
    const [a, b] = await instances(ctx, 2);
    await merchant(a!);
    expect((await b!.getMerchant(1001))!.active).toBe(true);
    await a!.updateMerchant(1001, { active: false });
    await a!.setSetting("order_ttl", "60");
    expect((await b!.getSettings()).order_ttl).toBe("60");
    await Bun.sleep(1050); // the merchant cache lives one second (no clock of ours drives it)
    expect((await b!.getMerchant(1001))!.active).toBe(false);
  });
}
