// Receiving accounts (add, list, the operator's checked save and remove), merchants and settings.
import { expect, test } from "bun:test";
import type { ChannelFacts, ChannelFields } from "../../src/core/store.ts";
import { account, create, type Ctx, merchant, T0 } from "./harness.ts";

export function accountsContract(ctx: Ctx): void {
  test("accounts: added with defaults, listed by owner or by who may use them, enabled and seen updated", async () => {
    const s = ctx.store;
    const shared = await account(s, { pid: 0, sort: 5 });
    const own = await account(s, { pid: 1001, sort: 1 });
    const other = await account(s, { pid: 1002 });
    expect(shared).toMatchObject({ pid: 0, payType: "alipay", enabled: true, minAmount: 0, maxAmount: 0, dayAmount: 0, useSeq: 0, lastSeenAt: 0, remark: "", scheme: "", createdAt: T0 });
    expect(await s.getChannel(own.id)).toEqual(own);
    expect(await s.getChannel(999_999)).toBeNull();
    expect((await s.listChannels()).map((a) => a.id)).toEqual([shared.id, own.id, other.id]);
    expect((await s.listChannels({ pid: 1001 })).map((a) => a.id)).toEqual([own.id]);
    expect((await s.listChannels({ usableBy: 1001 })).map((a) => a.id)).toEqual([own.id, shared.id]);
    expect(await s.updateChannel(own.id, { enabled: false })).toMatchObject({ enabled: false, lastSeenAt: 0 });
    expect(await s.updateChannel(own.id, { lastSeenAt: T0 })).toMatchObject({ enabled: false, lastSeenAt: T0 });
    expect(await s.updateChannel(999_999, { enabled: true })).toBeNull();
  });

  test("saveChannel: the rule sees the facts read in the unit; a refusal writes nothing; an edit merges", async () => {
    const s = ctx.store;
    await merchant(s);
    const first = await account(s, { code: "dup" });
    const seen: ChannelFacts[] = [];
    const refuseDup = (next: ChannelFields, facts: ChannelFacts) => (seen.push(facts), facts.sameCode.length > 0 ? `code ${next.code} is taken` : null);
    const input = { pid: 1001, payType: "alipay", code: "dup", name: "B", qrcode: "q" };
    expect(await s.saveChannel({ id: null, patch: input, now: T0, check: refuseDup })).toEqual({ kind: "refused", reason: "code dup is taken" });
    expect(seen[0]).toMatchObject({ current: null, merchantExists: true, orders: 0 });
    expect(seen[0]!.sameCode.map((a) => a.id)).toEqual([first.id]);
    expect((await s.listChannels()).length).toBe(1);
    const added = await s.saveChannel({ id: null, patch: { ...input, code: "new" }, now: T0, check: refuseDup });
    expect(added.kind).toBe("saved");
    if (added.kind !== "saved") return;
    expect(added.account).toMatchObject({ pid: 1001, code: "new", name: "B", minAmount: 0, sort: 0 });
    const edited = await s.saveChannel({ id: added.account.id, patch: { name: "C", maxAmount: 500, remark: undefined }, now: T0, check: () => null });
    expect(edited.kind === "saved" && edited.account).toMatchObject({ id: added.account.id, code: "new", name: "C", maxAmount: 500 });
    await s.saveChannel({ id: added.account.id, patch: { pid: 4242 }, now: T0, check: (_n, f) => (seen.push(f), null) });
    expect(seen.at(-1)).toMatchObject({ merchantExists: false, current: { name: "C" } });
    expect(await s.saveChannel({ id: 999_999, patch: {}, now: T0, check: () => null })).toEqual({ kind: "not_found" });
  });

  test("removeChannel: refused while an order used it; else removed, and its client names no account", async () => {
    const s = ctx.store;
    await merchant(s);
    const used = await account(s);
    await create(s);
    expect(await s.removeChannel(used.id)).toEqual({ kind: "used", orders: 1 });
    const free = await account(s, { payType: "wxpay" });
    await s.recordClientSeen({ kind: "phone", pid: 1001, name: "p", channelId: free.id, extData: "", lastSeenAt: T0 }, [free.id]);
    expect(await s.removeChannel(free.id)).toEqual({ kind: "removed", account: { ...free, lastSeenAt: T0 } });
    expect(await s.getChannel(free.id)).toBeNull();
    expect((await s.listClients())[0]!.channelId).toBeNull();
    expect(await s.removeChannel(free.id)).toEqual({ kind: "not_found" });
  });

  test("merchants: numbered from 1001 unless given, read, listed and patched", async () => {
    const s = ctx.store;
    const a = await s.addMerchant({ name: "A", secret: "s1", now: T0 });
    const b = await s.addMerchant({ name: "B", secret: "s2", now: T0 });
    const c = await s.addMerchant({ pid: 5000, name: "C", secret: "s3", now: T0 });
    expect([a.pid, b.pid, c.pid]).toEqual([1001, 1002, 5000]);
    expect((await s.addMerchant({ name: "D", secret: "s4", now: T0 })).pid).toBe(5001);
    expect(a).toEqual({ pid: 1001, name: "A", secret: "s1", active: true, rsaPublicKey: null, notifyMethod: "POST", settings: {}, createdAt: T0 });
    expect(await s.getMerchant(4242)).toBeNull();
    const patched = await s.updateMerchant(1001, { active: false, notifyMethod: "GET", rsaPublicKey: "PEM", settings: { epay_status_style: "legacy" } });
    expect(patched).toMatchObject({ name: "A", secret: "s1", active: false, notifyMethod: "GET", rsaPublicKey: "PEM", settings: { epay_status_style: "legacy" } });
    expect(await s.updateMerchant(1001, { name: "A2" })).toMatchObject({ name: "A2", rsaPublicKey: "PEM", active: false });
    expect(await s.updateMerchant(1001, { rsaPublicKey: null, secret: "s9" })).toMatchObject({ rsaPublicKey: null, secret: "s9" });
    expect(await s.getMerchant(1001)).toMatchObject({ name: "A2", secret: "s9" });
    expect(await s.updateMerchant(4242, { name: "x" })).toBeNull();
    expect((await s.listMerchants()).map((m) => m.pid)).toEqual([1001, 1002, 5000, 5001]);
  });

  test("settings: set overwrites, init keeps the first value written", async () => {
    const s = ctx.store;
    await s.setSetting("a", "1");
    await s.setSetting("a", "2");
    expect(await s.initSetting("b", "first")).toBe("first");
    expect(await s.initSetting("b", "second")).toBe("first");
    expect(await s.getSettings()).toMatchObject({ a: "2", b: "first" });
    await s.probeWrite();
    expect((await s.getSettings()).health_probe).toMatch(/^\d+$/);
  });
}
