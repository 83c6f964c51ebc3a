// Store.devices and recordClientSeen's `history`: each monitoring client's online stretches (beats
// each within `gap` of the one before are one stretch; a longer silence files it and starts the
// next), read by range, pruned in batches, kept right when several instances take one client's
// beats at once; a client's own payment reports and a merchant's recent reports.
import { expect, test } from "bun:test";
import type { ClientReportQuery } from "../../src/core/clients/store.ts";
import type { MonitorClient, Store } from "../../src/core/store.ts";
import { account, type Ctx, report, T0 } from "./harness.ts";

const phone = { kind: "phone" as const, pid: 1001, name: "pixel", channelId: null, extData: "" };
const GAP = { gap: 90 };

async function instances(ctx: Ctx, n: number): Promise<Store[]> {
  const all = [ctx.store];
  while (all.length < n) all.push(await ctx.another());
  return all;
}

export function devicesContract(ctx: Ctx): void {
  /** With the history of a 90 s gap unless `history` is null. */
  const beat = (at: number, o: { history?: { gap: number } | null; store?: Store; client?: Partial<MonitorClient> } = {}) =>
    (o.store ?? ctx.store).recordClientSeen({ ...phone, ...o.client, lastSeenAt: at }, [], o.history === undefined ? GAP : (o.history ?? undefined));
  const idOf = async (name = "pixel") => (await ctx.store.listClients()).find((c) => c.name === name)!.id;
  const all = async (name = "pixel") => ctx.store.devices.onlineIntervals(await idOf(name), 0, 1000);

  test("history: beats within the gap are one stretch, a longer silence starts the next; a late beat counts; no history leaves it", async () => {
    for (const t of [0, 30, 60, 150]) await beat(T0 + t); // 150 is exactly the gap after 60: the same stretch
    await beat(T0 + 241); // 91 s of silence
    await beat(T0 + 200); // late (sent before the last): counted, nothing filed
    await beat(T0 + 400, { history: null }); // a beat without history: last seen moves, the stretch does not
    expect(await all()).toEqual([
      { startAt: T0, endAt: T0 + 150, beats: 4 },
      { startAt: T0 + 241, endAt: T0 + 400, beats: 2 },
    ]);
    const c = await ctx.store.devices.getClient(await idOf());
    expect(c).toMatchObject({ ...phone, lastSeenAt: T0 + 400 });
    expect(await ctx.store.devices.getClient(999_999)).toBeNull();
    // A client first seen without history has no stretch until a beat with it.
    await beat(T0, { history: null, client: { name: "quiet" } });
    expect(await all("quiet")).toEqual([]);
    await beat(T0 + 10, { client: { name: "quiet" } });
    expect(await all("quiet")).toEqual([{ startAt: T0 + 10, endAt: T0 + 10, beats: 1 }]);
  });

  test("history: read from `since` (the stretch reaching into it too), the newest `limit` finished ones, the current one last", async () => {
    for (let i = 0; i < 5; i++) {
      await beat(T0 + i * 1000);
      await beat(T0 + i * 1000 + 60);
    }
    const id = await idOf();
    const read = async (since: number, limit = 100) => (await ctx.store.devices.onlineIntervals(id, since, limit)).map((r) => r.startAt - T0);
    expect(await read(0)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(await read(T0 + 1030)).toEqual([1000, 2000, 3000, 4000]);
    expect(await read(T0 + 1061)).toEqual([2000, 3000, 4000]);
    expect(await read(0, 2)).toEqual([2000, 3000, 4000]);
    expect(await read(T0 + 4061)).toEqual([]); // the current stretch ended before `since`
    expect((await ctx.store.devices.onlineIntervals(id, 0, 100)).at(-1)).toEqual({ startAt: T0 + 4000, endAt: T0 + 4060, beats: 2 });
  });

  test("history: the prune deletes finished stretches that ended before the cut, in batches; the current one stays", async () => {
    for (let i = 0; i < 4; i++) {
      await beat(T0 + i * 1000);
      await beat(T0 + i * 1000 + 60); // finished stretches end at 60, 1060, 2060; the current one at 3060
    }
    await beat(T0, { client: { name: "other" } });
    await beat(T0 + 1000, { client: { name: "other" } });
    expect(await ctx.store.devices.pruneIntervals(T0 + 2000, 1)).toBe(1);
    expect(await ctx.store.devices.pruneIntervals(T0 + 2000, 10)).toBe(2); // pixel's second and other's first
    expect(await ctx.store.devices.pruneIntervals(T0 + 2000, 10)).toBe(0);
    expect((await all()).map((r) => r.endAt - T0)).toEqual([2060, 3060]);
    expect((await all("other")).map((r) => r.endAt - T0)).toEqual([1000]);
    expect(await ctx.store.devices.pruneIntervals(T0 + 99_999, 10)).toBe(1);
    expect((await all()).map((r) => r.endAt - T0)).toEqual([3060]);
  });

  test("history: one client's beats at once on three instances: each counted once, a silence filed once", async () => {
    const stores = await instances(ctx, 3);
    await beat(T0);
    await Promise.all(Array.from({ length: 24 }, (_, i) => beat(T0 + 1 + (i % 4), { store: stores[i % 3] })));
    expect(await all()).toEqual([{ startAt: T0, endAt: T0 + 4, beats: 25 }]);
    // After a silence, the first of the beats that come at once files the stretch; the others join the new one.
    await Promise.all(Array.from({ length: 24 }, (_, i) => beat(T0 + 1000, { store: stores[i % 3] })));
    expect(await all()).toEqual([
      { startAt: T0, endAt: T0 + 4, beats: 25 },
      { startAt: T0 + 1000, endAt: T0 + 1000, beats: 24 },
    ]);
  });

  test("a client's payment reports (no heartbeats), by kind, merchant, unread, after an id; a merchant's recent reports", async () => {
    const s = ctx.store;
    await account(s);
    const put = async (o: Parameters<typeof report>[0]) => (await s.insertReport(report({ client: "pixel", ...o }))).id;
    const msg = await put({ kind: "message", outcome: "matched", createdAt: T0 });
    const chat = await put({ kind: "message", outcome: "unmatched", amount: null, reason: "not a payment message: no rule", createdAt: T0 + 1 });
    const unmatchedMoney = await put({ kind: "message", outcome: "unmatched", amount: 500, reason: "no pending order", createdAt: T0 + 2 });
    const heart = await put({ kind: "heart", outcome: "accepted", amount: null, createdAt: T0 + 3 });
    const amount = await put({ kind: "amount", outcome: "matched", createdAt: T0 + 4 });
    await put({ kind: "message", pid: 1002, outcome: "matched", createdAt: T0 + 5 }); // another merchant's phone of that name
    const otherPhone = await put({ kind: "message", client: "other", outcome: "matched", createdAt: T0 + 6 });
    const watcher = await put({ kind: "third-account", pid: null, client: "w1", outcome: "matched", createdAt: T0 + 7 });

    const q: ClientReportQuery = { pid: 1001, name: "pixel", kinds: ["message", "amount", "heart"], limit: 50 };
    const ids = async (x: Partial<ClientReportQuery>) => (await s.devices.clientReports({ ...q, ...x })).map((r) => r.id);
    expect(await ids({})).toEqual([amount, unmatchedMoney, chat, msg]);
    expect(await ids({ kinds: ["message"] })).toEqual([unmatchedMoney, chat, msg]);
    expect(await ids({ unread: true })).toEqual([chat]);
    expect(await ids({ afterId: chat })).toEqual([amount, unmatchedMoney]);
    expect(await ids({ limit: 1 })).toEqual([amount]);
    expect(await ids({ kinds: ["message'); DROP TABLE reports; --"] })).toEqual([]);
    expect(await ids({ pid: null, name: "w1", kinds: ["third-account"] })).toEqual([watcher]);
    expect(await ids({ pid: 1001, name: "w1", kinds: ["third-account"] })).toEqual([]);
    expect((await s.devices.clientReports({ ...q, kinds: ["message"] }))[0]).toMatchObject({ kind: "message", client: "pixel", amount: 500, reason: "no pending order", createdAt: T0 + 2 });

    const recent = async (o: { since: number; afterId?: number; limit?: number }) => (await s.devices.merchantReports(1001, { limit: 50, ...o })).map((r) => r.id);
    // Every client of the merchant, the heartbeat too; not the other merchant's, nor the watcher's.
    expect(await recent({ since: T0 + 2 })).toEqual([otherPhone, amount, heart, unmatchedMoney]);
    expect(await recent({ since: T0 + 3, afterId: heart })).toEqual([otherPhone, amount]);
    expect(await recent({ since: 0, limit: 2 })).toEqual([otherPhone, amount]);
  });
}
