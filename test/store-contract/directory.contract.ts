// Store.directory: who watches which account, as the payment reports read it. Both engines give
// every account and keyed client by id without their stamps, and a change through any instance
// is in the next answer (SQLite keeps the answer between changes: migration 034).
import { expect, test } from "bun:test";
import type { Directory, Store } from "../../src/core/store.ts";
import { account, claim, create, type Ctx, merchant, settleUnit, T0 } from "./harness.ts";

/** What the directory must hold: the lists, without the stamps. */
async function expected(s: Store) {
  const accounts = (await s.listChannels()).map(({ useSeq: _s, lastSeenAt: _l, ...a }) => a);
  const clients = (await s.listKeyedClients()).map(({ lastHeartT: _t, lastHeartAt: _h, lastPushAt: _p, ...c }) => c);
  return { accounts, clients };
}
const plain = (d: Directory) => ({ accounts: d.accounts.map((a) => ({ ...a })), clients: d.clients.map((c) => ({ ...c, accountIds: [...c.accountIds] })) });

export function directoryContract(ctx: Ctx): void {
  test("directory: every account and keyed client by id, without the stamps that move on creates and heartbeats", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s);
    const b = await account(s, { payType: "wxpay", code: "wx_qr" });
    await s.addKeyedClient({ kind: "report", pid: 1001, name: "pixel", key: "k-report", accountIds: [b.id], now: T0 });
    await s.addKeyedClient({ kind: "vmq", pid: 0, name: "vmq", key: "k-vmq", accountIds: [], now: T0 });
    await create(s); // moves an account's round-robin stamp
    await s.recordClientSeen({ kind: "phone", pid: 1001, name: "pixel", channelId: a.id, extData: "", lastSeenAt: T0 + 5 }, [a.id]);
    const d = await s.directory();
    expect(plain(d)).toEqual(await expected(s));
    expect(d.accounts.map((x) => x.id)).toEqual([a.id, b.id]);
    expect(d.accounts[0]).not.toHaveProperty("useSeq");
    expect(d.clients[0]).not.toHaveProperty("lastHeartT");
  });

  test("directory: a change through this store or another instance is in the next answer", async () => {
    const s = ctx.store;
    const other = await ctx.another();
    await merchant(s);
    const a = await account(s);
    await s.directory();
    const added = await other.addKeyedClient({ kind: "report", pid: 1001, name: "pixel", key: "k1", accountIds: [], now: T0 });
    if (added.kind !== "added") throw new Error(added.reason);
    expect((await s.directory()).clients.map((c) => [c.name, c.accountIds])).toEqual([["pixel", []]]);
    await other.bindKeyedClient(added.client.id, [a.id]);
    expect((await s.directory()).clients.map((c) => [c.name, c.accountIds])).toEqual([["pixel", [a.id]]]);
    await other.updateChannel(a.id, { enabled: false });
    expect((await s.directory()).accounts.map((x) => [x.id, x.enabled])).toEqual([[a.id, false]]);
    const b = await other.addChannel({ pid: 0, payType: "alipay", code: "shared", name: "Shared", qrcode: "q", now: T0 });
    expect((await s.directory()).accounts.map((x) => x.id)).toEqual([a.id, b.id]);
    await other.removeKeyedClient(added.client.id);
    expect((await s.directory()).clients).toEqual([]);
    await s.removeChannel(b.id);
    expect((await s.directory()).accounts.map((x) => x.id)).toEqual([a.id]);
    expect(plain(await s.directory())).toEqual(await expected(s));
  });

  test("directory: a report's settlement takes the accounts as committed, through any instance, with a dedupe key or without", async () => {
    const s = ctx.store;
    const other = await ctx.another();
    await merchant(s);
    await account(s);
    // This instance's settlement keeps the directory as it reads it.
    expect((await s.settleReport(settleUnit(claim({ amount: 1 }), { dedupeKey: "warm" }))).outcome).toBe("unmatched");
    expect((await s.settleReport(settleUnit(claim({ amount: 2 })))).outcome).toBe("unmatched");
    // Another instance adds an account of another pay type and an order on it.
    await account(other, { payType: "wxpay", code: "wx_qr" });
    const y = await create(other, { payType: "wxpay" });
    const keyed = await s.settleReport(settleUnit(claim({ amount: y.tradeAmount!, payType: "wxpay" }), { dedupeKey: "k-y" }));
    expect({ outcome: keyed.outcome, tradeNo: keyed.tradeNo }).toEqual({ outcome: "matched", tradeNo: y.tradeNo });
    // The same without a dedupe key (the version read when the rule first asks for the accounts).
    await account(other, { payType: "qqpay", code: "qq_qr" });
    const z = await create(other, { payType: "qqpay" });
    const plainReport = await s.settleReport(settleUnit(claim({ amount: z.tradeAmount!, payType: "qqpay" })));
    expect({ outcome: plainReport.outcome, tradeNo: plainReport.tradeNo }).toEqual({ outcome: "matched", tradeNo: z.tradeNo });
    expect((await s.getOrder(z.tradeNo))!.status).toBe(2);
  });
}
