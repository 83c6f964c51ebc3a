// Store.alerts: channels, the facts and events a pass reads (with cursors), the pass unit, the alert
// outbox (leases, the fair claim, attempts, history, prune), and several instances on one
// database: a pass fires an alert once and a message is sent once, however many instances run.
import { expect, test } from "bun:test";
import type { AlertChannel, AlertPassUnit, AlertStore, FactQuery } from "../../src/core/alerts/store.ts";
import type { AlertInstance, AlertMessage } from "../../src/core/alerts/types.ts";
import { account, create, type Ctx, merchant, payUnit, report, T0 } from "./harness.ts";

const MS = T0 * 1000;
const FACTS: FactQuery = { now: T0, minAttempts: 1, deliveredSince: MS - 600_000, createdSince: T0 - 3600, limit: 50 };

function message(key: string, event: AlertMessage["event"] = "firing"): AlertMessage {
  return { event, condition: "client_silent", key, title: `${event} ${key}`, text: `${event} ${key}\ndetail`, since: T0, at: MS, refs: { clientId: 1 }, command: "xpay client list" };
}

function instance(key: string, o: Partial<AlertInstance> = {}): AlertInstance {
  return {
    key, condition: "client_silent", state: "firing", notified: true, openedAt: T0, resolvedAt: null, lastSentAt: T0, flaps: 0,
    finding: { key, condition: "client_silent", title: `silent ${key}`, detail: "d", since: T0 - 100, refs: { clientId: 1 }, command: "xpay client list" }, ...o,
  };
}

async function channel(a: AlertStore, name = "ops"): Promise<AlertChannel> {
  const r = await a.addChannel({ name, type: "webhook", config: { url: "http://127.0.0.1:9/hook" }, now: T0 });
  if (r.kind !== "added") throw new Error(r.reason);
  return r.channel;
}

/** The pass of core/alerts/evaluate.ts in short: read, decide (fire `key` unless it is firing), write. */
async function pass(a: AlertStore, key: string, channels: AlertChannel[], between: () => Promise<void> = async () => {}): Promise<void> {
  await a.readFacts(FACTS);
  const events = await a.readEvents(500);
  const firing = (await a.activeInstances()).some((i) => i.key === key);
  await a.getInstances([key]);
  await between();
  const unit: AlertPassUnit = { instances: firing ? [] : [instance(key)], messages: firing ? [] : [{ message: message(key), channels }], cursors: events.cursors, nowMs: MS };
  await a.applyPass(unit);
}

/** Resolves once `n` callers wait on it: every pass has read before any writes. */
function barrier(n: number): () => Promise<void> {
  let waiting = 0;
  let open!: () => void;
  const all = new Promise<void>((r) => (open = r));
  return () => (++waiting === n && open(), all);
}

export function alertsContract(ctx: Ctx): void {
  const alerts = () => ctx.store.alerts;

  test("alerts: channels are added once by name, listed, found, and removed with their pending messages failed", async () => {
    const a = alerts();
    const ops = await channel(a);
    expect(ops).toMatchObject({ name: "ops", type: "webhook", config: { url: "http://127.0.0.1:9/hook" }, enabled: true, createdAt: T0 });
    expect(await a.addChannel({ name: "ops", type: "telegram", config: {}, now: T0 })).toEqual({ kind: "refused", reason: "an alert channel named ops exists already" });
    const tg = await channel(a, "tg");
    expect((await a.listChannels()).map((c) => c.name)).toEqual(["ops", "tg"]);
    expect(await a.getChannel("tg")).toEqual(tg);
    expect(await a.getChannel("nope")).toBeNull();
    await a.applyPass({ instances: [instance("k1")], messages: [{ message: message("k1"), channels: [ops, tg] }], cursors: null, nowMs: MS });
    expect(await a.removeChannel("ops", MS + 5)).toBe(true);
    expect(await a.removeChannel("ops", MS + 5)).toBe(false);
    const h = await a.history({ limit: 10 });
    expect(h.map((r) => [r.channelName, r.status])).toEqual([["tg", "pending"], ["ops", "failed"]]);
    expect((await a.claimDue(MS + 10, 10, 60_000)).map((r) => r.channelName)).toEqual(["tg"]);
  });

  test("alerts: a pass writes its instances, one outbox row per message and channel, and the cursors, in one unit", async () => {
    const a = alerts();
    const [ops, tg] = [await channel(a), await channel(a, "tg")];
    await a.applyPass({
      instances: [instance("k1"), instance("k2", { state: "resolved", resolvedAt: T0 + 5, notified: false })],
      messages: [{ message: message("k1"), channels: [ops, tg] }, { message: message("k2", "resolved"), channels: [ops] }], cursors: { reports: 0, attempts: 0 }, nowMs: MS,
    });
    expect((await a.activeInstances()).map((i) => i.key)).toEqual(["k1"]);
    expect(await a.getInstances(["k2", "k3"])).toEqual([instance("k2", { state: "resolved", resolvedAt: T0 + 5, notified: false })]);
    expect(await a.getInstances([])).toEqual([]);
    const claimed = await a.claimDue(MS, 10, 60_000);
    expect(claimed.map((c) => [c.channelName, c.message.key, c.message.event, c.attempts])).toEqual([["ops", "k1", "firing", 0], ["tg", "k1", "firing", 0], ["ops", "k2", "resolved", 0]]);
    expect(claimed[0]!.message).toEqual(message("k1"));
    // An update of a stored key replaces it.
    await a.applyPass({ instances: [instance("k1", { state: "resolved", resolvedAt: T0 + 9, flaps: 2 })], messages: [], cursors: null, nowMs: MS + 1 });
    expect(await a.activeInstances()).toEqual([]);
    expect((await a.getInstances(["k1"]))[0]).toMatchObject({ state: "resolved", resolvedAt: T0 + 9, flaps: 2 });
  });

  test("alerts: events start at the newest rows, then come after the cursors (paid or not, never the operator's own), in pages", async () => {
    const s = ctx.store;
    const a = alerts();
    await merchant(s);
    await s.insertReport(report({ outcome: "unmatched" })); // history from before the cursors: never alerted
    const first = await a.readEvents(2);
    expect(first.reports).toEqual([]);
    await a.applyPass({ instances: [], messages: [], cursors: first.cursors, nowMs: MS });
    const ids: number[] = [];
    for (const r of [report({ outcome: "unmatched", amount: 4200 }), report({ outcome: "duplicate" }), report({ kind: "operator", outcome: "matched" }), report({ outcome: "unmatched", amount: 4300 }), report({ outcome: "matched", amount: 4400 })]) {
      ids.push((await s.insertReport(r)).id);
    }
    const page = await a.readEvents(2);
    expect(page.reports.map((r) => [r.id, r.amount, r.outcome])).toEqual([[ids[0]!, 4200, "unmatched"], [ids[3]!, 4300, "unmatched"]]);
    expect(page.cursors.reports).toBe(ids[3]!);
    await a.applyPass({ instances: [], messages: [], cursors: page.cursors, nowMs: MS });
    const rest = await a.readEvents(2);
    expect(rest.reports.map((r) => r.id)).toEqual([ids[4]!]);
    expect(rest.cursors.reports).toBe(ids[4]!);
  });

  test("alerts: the facts list silent clients, accounts with pending orders, failing notifications and merchants, failed creates; cut lists say so", async () => {
    const s = ctx.store;
    const a = alerts();
    await merchant(s);
    const acc = await account(s);
    await s.recordClientSeen({ kind: "phone", pid: 1001, name: "p1", channelId: acc.id, extData: "", lastSeenAt: T0 - 500 }, [acc.id]);
    await s.recordClientSeen({ kind: "phone", pid: 1001, name: "p2", channelId: null, extData: "", lastSeenAt: T0 - 10 }, []);
    const pending = await create(s, { amount: 1000 }, { now: T0 - 60 });
    await create(s, { amount: 2000 }, { now: T0 - 30 });
    const paid = await create(s, { amount: 3000 }, { now: T0 - 20 });
    await s.payOrder({ ...payUnit(paid.tradeNo, T0 - 10), nowMs: MS - 10_000 });
    const [n] = await s.claimDueNotifications(MS, 1, 60_000);
    await s.recordNotificationAttempt(n!.id, { attempt: { attemptedAt: MS - 5000, durationMs: 3, httpStatus: 502, body: "bad", error: "HTTP 502", acknowledged: false }, status: "pending", nextAttemptAt: MS + 15_000 });
    await create(s, { payType: "qqpay" }, { now: T0 - 5 });
    const f = await a.readFacts(FACTS);
    expect(f.clients.map((c) => [c.name, c.lastSeenAt])).toEqual([["p1", T0 - 500], ["p2", T0 - 10]]);
    expect(f.pendingAccounts).toEqual([{ id: acc.id, pid: 0, name: acc.name, payType: "alipay", lastSeenAt: T0 - 500, pending: 2, oldestAt: T0 - 60, tradeNo: pending.tradeNo }]);
    expect(f.failingNotifications).toEqual([{ id: n!.id, tradeNo: paid.tradeNo, pid: 1001, attempts: 1, createdAt: T0 - 10, url: paid.notifyUrl, lastError: "HTTP 502", lastStatus: 502 }]);
    expect(f.failingMerchants).toEqual([{ pid: 1001, failing: 1, since: T0 - 10, tradeNo: paid.tradeNo }]);
    expect(f.deliveredPids).toEqual([]);
    expect(f.createFailures.map((c) => [c.pid, c.count])).toEqual([[1001, 1]]);
    expect(f.truncated).toEqual([]);
    const cut = await a.readFacts({ ...FACTS, limit: 1 });
    expect(cut.clients.map((c) => c.name)).toEqual(["p1"]);
    expect(cut.truncated).toEqual(["clients"]);
  });

  test("alert outbox: leased once until the lease runs out; the fair claim leases only what it admits; attempts and history; prune", async () => {
    const a = alerts();
    const [ops, tg] = [await channel(a), await channel(a, "tg")];
    const leased = await a.insertLeased(tg, message("test", "test"), MS, 60_000);
    await a.applyPass({ instances: [], messages: ["k1", "k2", "k3"].map((k) => ({ message: message(k), channels: [ops] })), cursors: null, nowMs: MS });
    const seen: number[] = [];
    const fair = { perChannel: 2, admit: (id: number) => (seen.push(id), seen.length === 1) };
    const first = await a.claimDue(MS, 10, 60_000, fair);
    expect(seen).toEqual([ops.id, ops.id]); // at most perChannel of a channel read; the leased test row not at all
    expect(first.map((r) => r.message.key)).toEqual(["k1"]);
    const rest = await a.claimDue(MS, 10, 60_000);
    expect(rest.map((r) => r.message.key)).toEqual(["k2", "k3"]);
    expect(await a.claimDue(MS + 59_999, 10, 60_000)).toEqual([]);
    const attempt = { attemptedAt: MS + 100, durationMs: 40, httpStatus: 500, answer: "down", error: "HTTP 500", ok: false };
    await a.recordAttempt(first[0]!.id, { attempt, status: "pending", nextAttemptAt: MS + 10_000 });
    await a.recordAttempt(leased, { attempt: { ...attempt, httpStatus: 200, answer: "ok", error: "", ok: true }, status: "sent", nextAttemptAt: MS + 100 });
    // The crashed claimer's leases run out (k2, k3); k1 is due at its retry; in due order.
    expect((await a.claimDue(MS + 60_000, 10, 60_000)).map((r) => [r.message.key, r.attempts])).toEqual([["k2", 0], ["k3", 0], ["k1", 1]]);
    const h = await a.history({ limit: 3 });
    expect(h.map((r) => [r.key, r.status, r.attempts])).toEqual([["k3", "pending", 0], ["k2", "pending", 0], ["k1", "pending", 1]]);
    expect(h[2]!.last).toEqual(attempt);
    expect(h[2]!.nextAttemptAt).toBe(MS + 10_000);
    const sent = (await a.history({ limit: 10 })).at(-1)!;
    expect(sent).toMatchObject({ key: "test", channelName: "tg", event: "test", status: "sent", sentAt: MS + 100, attempts: 1 });
    await a.applyPass({ instances: [instance("old", { state: "resolved", resolvedAt: T0 - 10 }), instance("new", { state: "resolved", resolvedAt: T0 + 10 })], messages: [], cursors: null, nowMs: MS });
    expect(await a.prune(MS + 1)).toBe(2); // the sent message and the old resolved instance
    expect((await a.history({ limit: 10 })).map((r) => r.key)).toEqual(["k3", "k2", "k1"]);
    expect((await a.getInstances(["old", "new"])).map((i) => i.key)).toEqual(["new"]);
  });

  test("alerts on several instances: passes that read the same state fire once; concurrent claims send each message once", async () => {
    const a = alerts();
    const others = [await ctx.another(), await ctx.another()].map((s) => s.alerts);
    const ops = await channel(a);
    const all = [a, ...others];
    const wait = barrier(all.length);
    await Promise.all(all.map((x) => pass(x, "client_silent:client:1", [ops], wait)));
    expect((await a.history({ limit: 10 })).map((r) => r.key)).toEqual(["client_silent:client:1"]);
    expect((await others[0]!.activeInstances()).map((i) => i.key)).toEqual(["client_silent:client:1"]);
    // The next passes see it firing and add nothing; a pass that read nothing stale is not held back.
    await Promise.all(all.map((x) => pass(x, "client_silent:client:1", [ops])));
    await pass(others[1]!, "client_silent:client:2", [ops]);
    expect((await a.history({ limit: 10 })).length).toBe(2);

    await a.applyPass({ instances: [], messages: Array.from({ length: 40 }, (_, i) => ({ message: message(`m${i}`), channels: [ops] })), cursors: null, nowMs: MS });
    const claims = await Promise.all(all.flatMap((x) => [x.claimDue(MS, 15, 60_000), x.claimDue(MS, 15, 60_000, { perChannel: 15, admit: () => true })]));
    // A claim may find every row it read taken by another: what is left goes to the next claim.
    const ids = [...claims.flat(), ...(await a.claimDue(MS, 100, 60_000))].map((r) => r.id);
    expect(claims.flat().length).toBeGreaterThan(15);
    expect(ids.length).toBe(42);
    expect(new Set(ids).size).toBe(42);
    // Every claimer "crashed" (no attempt recorded): once the leases run out another instance takes them all.
    expect(await others[1]!.claimDue(MS + 59_999, 100, 60_000)).toEqual([]);
    expect((await others[1]!.claimDue(MS + 60_000, 100, 60_000)).length).toBe(42);
  });
}
