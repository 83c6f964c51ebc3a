// Issue 30 item 4 on every adapter: keyed clients bound to the accounts their phones watch, the
// report groups those bindings make (the core's rule, core/clients/watch.ts), payable amounts kept
// unique across a group by concurrent creates on two instances, each phone's report paying exactly
// its order, and a SmsForwarder timestamp accepted once.
import { expect, test } from "bun:test";
import { allWatchers, reportGroups } from "../../src/core/clients/watch.ts";
import type { Order } from "../../src/core/types.ts";
import type { NonceClaim, Store } from "../../src/core/store.ts";
import { account, claim, create, type Ctx, merchant, report, settleUnit, T0 } from "./harness.ts";

const refresh = (s: Store, merchantReports = true) => s.refreshReportGroups((accounts, clients) => reportGroups(accounts, allWatchers(clients, accounts, merchantReports)));

async function phone(s: Store, name: string, accountIds: number[] = []) {
  const r = await s.addKeyedClient({ kind: "smsforwarder", pid: 1001, name, key: `key-of-${name}-0123456789`, accountIds, now: T0 });
  if (r.kind !== "added") throw new Error(r.reason);
  return r.client;
}

/** 50 creates of 10.00 at once, alternating between two instances on one database. */
async function fifty(ctx: Ctx): Promise<Order[]> {
  const all = [ctx.store, await ctx.another()];
  return Promise.all(Array.from({ length: 50 }, (_, i) => create(all[i % 2]!, {}, { policy: { maxOffset: 60 } })));
}

export function reportGroupsContract(ctx: Ctx): void {
  test("keyed clients: bound, rebound and removed with their list row; any kind; owner 0 is the operator", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s, { pid: 1001 });
    const op = await s.addKeyedClient({ kind: "report", pid: 0, name: "operator-phone", key: "operator-key-0123", accountIds: [], now: T0 });
    expect(op.kind).toBe("added");
    expect((await s.addKeyedClient({ kind: "report", pid: 1001, name: "x", key: "secret-1001", accountIds: [], now: T0 })).kind).toBe("refused"); // a merchant's AppSecret
    const p = await phone(s, "p1");
    expect(await s.bindKeyedClient(p.id, [a.id])).toMatchObject({ id: p.id, kind: "smsforwarder", accountIds: [a.id] });
    expect((await s.getKeyedClient(p.id))!.accountIds).toEqual([a.id]);
    expect(await s.bindKeyedClient(999_999, [])).toBeNull();
    expect((await s.listClients()).map((c) => [c.kind, c.pid, c.name]).sort()).toEqual([["report", 0, "operator-phone"], ["smsforwarder", 1001, "p1"]]);
    expect((await s.removeKeyedClient(p.id))?.name).toBe("p1");
    expect(await s.removeKeyedClient(p.id)).toBeNull();
    expect((await s.listClients()).map((c) => c.name)).toEqual(["operator-phone"]);
    expect((await s.listKeyedClients()).map((c) => c.name)).toEqual(["operator-phone"]);
  });

  test("refreshReportGroups writes the rule's groups and says how many changed", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s, { pid: 1001 });
    const b = await account(s, { pid: 1001 });
    const w = await account(s, { pid: 1001, payType: "wxpay" });
    expect((await s.getChannel(b.id))!.reportGroup).toBe(0); // never computed
    expect(await refresh(s)).toBe(3); // the merchant's AppSecret could mean either Alipay account
    expect([(await s.getChannel(a.id))!.reportGroup, (await s.getChannel(b.id))!.reportGroup, (await s.getChannel(w.id))!.reportGroup]).toEqual([a.id, a.id, w.id]);
    expect(await refresh(s)).toBe(0);
    const p = await phone(s, "p1", [b.id]);
    expect(await refresh(s)).toBe(1);
    expect((await s.getChannel(b.id))!.reportGroup).toBe(b.id);
    await s.bindKeyedClient(p.id, [a.id, b.id]);
    await refresh(s);
    expect((await s.getChannel(b.id))!.reportGroup).toBe(a.id);
  });

  test("two Alipay accounts, one unbound forwarder: 50 concurrent creates get 50 distinct amounts, and each forwarded payment pays exactly its order", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s, { pid: 1001 });
    const b = await account(s, { pid: 1001 });
    const forwarder = await phone(s, "forwarder");
    await refresh(s, false); // only the forwarder reports: its reports could mean either account
    const made = await fifty(ctx);
    expect(made.every((o) => o.status === 1)).toBe(true);
    expect(new Set(made.map((o) => o.tradeAmount)).size).toBe(50);
    expect(new Set(made.map((o) => o.accountId))).toEqual(new Set([a.id, b.id]));
    // The reserved-amounts view of either account shows what the allocator skipped: the whole group.
    const held = await s.slots.heldSlots(a.id, T0 - 600, { limit: 100 });
    expect(held.length).toBe(50);
    expect(new Set(held.map((x) => x.accountId))).toEqual(new Set([a.id, b.id]));
    // The forwarder's report names a pay type and an amount, no account: it means one order.
    for (const o of made) {
      const r = await s.settleReport(settleUnit(claim({ amount: o.tradeAmount!, accounts: [a.id, b.id] }), { client: forwarder.name, dedupeKey: `m-${o.tradeNo}` }));
      expect(r).toMatchObject({ outcome: "matched", tradeNo: o.tradeNo });
    }
  });

  test("each account bound to its own phone: amounts repeat across the two, and each phone's report pays the order on its own account", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s, { pid: 1001 });
    const b = await account(s, { pid: 1001 });
    await phone(s, "phone-a", [a.id]);
    await phone(s, "phone-b", [b.id]);
    await refresh(s);
    const made = await Promise.all(Array.from({ length: 10 }, () => create(s, {}, { policy: { maxOffset: 60 } })));
    const held = (acc: number) => made.filter((o) => o.accountId === acc).map((o) => o.tradeAmount!);
    const shared = held(a.id).filter((x) => held(b.id).includes(x));
    expect(shared.length).toBeGreaterThan(0); // e.g. 10.00 on both accounts
    const amount = shared[0]!;
    const onA = made.find((o) => o.accountId === a.id && o.tradeAmount === amount)!;
    const onB = made.find((o) => o.accountId === b.id && o.tradeAmount === amount)!;
    expect((await s.settleReport(settleUnit(claim({ amount, accounts: [b.id] }), { dedupeKey: "b" }))).tradeNo).toBe(onB.tradeNo);
    expect((await s.settleReport(settleUnit(claim({ amount, accounts: [a.id] }), { dedupeKey: "a" }))).tradeNo).toBe(onA.tradeNo);
    // A report that could mean both (no account named, both watched) is ambiguous: none of them left now.
    expect((await s.getOrder(onA.tradeNo))!.status).toBe(2);
  });

  test("a SmsForwarder timestamp is accepted once: a second settle or insert with it stores nothing", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s, { pid: 1001 });
    const o = await create(s);
    const nonce: NonceClaim = { clientId: 7, ts: T0 * 1000, seenAt: T0, forgetBefore: T0 * 1000 - 120_000 };
    const first = await s.settleReport({ ...settleUnit(claim({ amount: o.tradeAmount! }), { dedupeKey: "k1" }), nonce });
    expect(first).toMatchObject({ outcome: "matched", tradeNo: o.tradeNo });
    const again = await s.settleReport({ ...settleUnit(claim({ amount: 999 }), { dedupeKey: "k2" }), nonce });
    expect(again).toMatchObject({ outcome: "duplicate", reportId: 0, replayed: true, pay: null });
    expect(await s.insertReport(report({ outcome: "unmatched" }), nonce)).toEqual({ id: 0, duplicate: true, replayed: true });
    expect((await s.listReports({})).length).toBe(1);
    // Another client, or another timestamp of this one, is new; timestamps past the window are forgotten.
    expect((await s.insertReport(report({ outcome: "unmatched" }), { ...nonce, clientId: 8 })).replayed).toBeUndefined();
    const later = { ...nonce, ts: nonce.ts + 200_000, forgetBefore: nonce.ts + 1 };
    expect((await s.insertReport(report({ outcome: "unmatched" }), later)).replayed).toBeUndefined();
    expect((await s.insertReport(report({ outcome: "unmatched" }), { ...later, ts: nonce.ts })).replayed).toBeUndefined(); // forgotten: past the window anyway
  });
}
