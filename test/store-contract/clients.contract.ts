// Monitoring clients, V免签 clients, bounded refusals, the retention prune, backup and the write probe.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RefusalLimits, refusalRecord } from "../../src/core/refusals.ts";
import { account, type Ctx, merchant, report, T0 } from "./harness.ts";
import { paidOrders } from "./outbox.contract.ts";

export function clientsContract(ctx: Ctx): void {
  test("recordClientSeen: one row per client, the newest time wins, empty fields keep the old values", async () => {
    const s = ctx.store;
    const a = await account(s);
    const b = await account(s);
    const base = { kind: "phone" as const, pid: 1001, name: "p1", channelId: a.id, extData: "v1" };
    await s.recordClientSeen({ ...base, lastSeenAt: T0 }, [a.id, b.id]);
    await s.recordClientSeen({ ...base, channelId: null, extData: "", lastSeenAt: T0 - 50 }, [b.id]);
    await s.recordClientSeen({ kind: "third-account", pid: 0, name: "w", channelId: null, extData: "", lastSeenAt: T0 + 5 }, []);
    const list = await s.listClients();
    expect(list.map((c) => c.name)).toEqual(["w", "p1"]);
    expect(list[1]).toMatchObject({ kind: "phone", pid: 1001, channelId: a.id, extData: "v1", lastSeenAt: T0 });
    expect((await s.getChannel(b.id))!.lastSeenAt).toBe(T0);
  });

  test("recordClientSeen onlyListed: refreshes a listed client, adds none, marks the accounts seen either way (issue 31)", async () => {
    const s = ctx.store;
    const a = await account(s);
    const phone = { kind: "phone" as const, pid: 1001, channelId: null, extData: "" };
    await s.recordClientSeen({ ...phone, name: "alipay_qr", lastSeenAt: T0 }, [a.id], { gap: 90 }, { onlyListed: true });
    expect(await s.listClients()).toEqual([]);
    expect((await s.getChannel(a.id))!.lastSeenAt).toBe(T0);
    await s.recordClientSeen({ ...phone, name: "till-1", lastSeenAt: T0 + 1 }, [], { gap: 90 });
    await s.recordClientSeen({ ...phone, name: "till-1", lastSeenAt: T0 + 30 }, [a.id], { gap: 90 }, { onlyListed: true });
    expect((await s.listClients()).map((c) => [c.name, c.lastSeenAt])).toEqual([["till-1", T0 + 30]]);
    expect((await s.getChannel(a.id))!.lastSeenAt).toBe(T0 + 30);
  });

  test("V免签 clients: added with their list row, refused on an unknown merchant, a taken name or key", async () => {
    const s = ctx.store;
    await merchant(s);
    const a = await account(s);
    const added = await s.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone", key: "k1", accountIds: [a.id], now: T0 });
    expect(added.kind).toBe("added");
    if (added.kind !== "added") return;
    expect(added.client).toMatchObject({ pid: 1001, name: "phone", key: "k1", accountIds: [a.id], createdAt: T0, lastHeartT: 0, lastHeartAt: 0, lastPushAt: 0 });
    expect(await s.addKeyedClient({ kind: "vmq", pid: 4242, name: "x", key: "k2", accountIds: [], now: T0 })).toEqual({ kind: "refused", reason: "no merchant with pid 4242" });
    expect((await s.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone", key: "k3", accountIds: [], now: T0 })).kind).toBe("refused");
    expect((await s.addKeyedClient({ kind: "vmq", pid: 1001, name: "other", key: "k1", accountIds: [], now: T0 })).kind).toBe("refused");
    expect((await s.listClients()).map((c) => [c.kind, c.name, c.lastSeenAt])).toEqual([["vmq", "phone", 0]]);
    expect(await s.listKeyedClients()).toEqual([added.client]);
    expect(await s.getKeyedClient(added.client.id)).toEqual(added.client);
    expect(await s.getKeyedClient(999_999)).toBeNull();
  });

  test("V免签 heartbeats move forward only; pushes keep the latest time", async () => {
    const s = ctx.store;
    await merchant(s);
    const r = await s.addKeyedClient({ kind: "vmq", pid: 1001, name: "phone", key: "k", accountIds: [], now: T0 });
    const id = r.kind === "added" ? r.client.id : -1;
    expect(await s.acceptVmqHeart(id, 5000, T0 + 1)).toBe(true);
    expect(await s.acceptVmqHeart(id, 5000, T0 + 2)).toBe(false); // a replay
    expect(await s.acceptVmqHeart(id, 4000, T0 + 3)).toBe(false);
    await s.recordVmqPush(id, T0 + 10);
    await s.recordVmqPush(id, T0 + 5);
    expect(await s.getKeyedClient(id)).toMatchObject({ lastHeartT: 5000, lastHeartAt: T0 + 1, lastPushAt: T0 + 10 });
  });

  test("refusals: counted per source and reason, rows bounded per source and in all, new pairs past the cap count as (other)", async () => {
    const s = ctx.store;
    const limits: RefusalLimits = { rawBytes: 64, perSource: 2, total: 3, counterRows: 2 };
    const refuse = (source: string, reason: string, at: number) =>
      s.insertRefusal(refusalRecord({ kind: "amount", pid: null, client: "", raw: "x".repeat(100), payType: "", channelCode: "", reason, source }, at, limits), limits);
    for (let i = 0; i < 3; i++) await refuse("1.1.1.1", "bad signature", T0 + i);
    await refuse("2.2.2.2", "unknown merchant (pid 7)", T0 + 10);
    await refuse("3.3.3.3", "bad signature", T0 + 11);
    const rows = await s.listReports({ outcome: "rejected" });
    expect(rows.map((r) => [r.source, r.createdAt])).toEqual([["3.3.3.3", T0 + 11], ["2.2.2.2", T0 + 10], ["1.1.1.1", T0 + 2]]);
    expect(rows[0]!.raw.length).toBe(64);
    const counts = await s.listRefusalCounts({});
    expect(counts.map((c) => [c.source, c.reason, c.count])).toEqual([["1.1.1.1", "bad signature", 3], ["(other)", "(other)", 1], ["2.2.2.2", "unknown merchant", 1]]);
    expect(counts[0]).toMatchObject({ firstSeen: T0, lastSeen: T0 + 2 });
    expect((await s.listRefusalCounts({ limit: 1 })).length).toBe(1);
  });

  test("prune: old heartbeats, refusals, duplicates and non-payments go; payments and live histories stay", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const old = T0 - 100;
    for (const [outcome, amount] of [["accepted", null], ["duplicate", 5], ["unmatched", null], ["unmatched", 5], ["matched", 5]] as const) {
      await s.insertReport(report({ outcome, amount, createdAt: old, dedupeKey: null }));
    }
    await s.insertRefusal(refusalRecord({ kind: "amount", pid: null, client: "", raw: "", payType: "", channelCode: "", reason: "bad", source: "x" }, old), { rawBytes: 10, perSource: 5, total: 5, counterRows: 5 });
    const [delivered, retrying] = await paidOrders(s, 2);
    const claimed = await s.claimDueNotifications(T0 * 1000 + 5, 2, 1000);
    const attempt = { attemptedAt: 1000, durationMs: 1, httpStatus: 500, body: "", error: "", acknowledged: false };
    for (const n of claimed) await s.recordNotificationAttempt(n.id, { attempt, status: n.tradeNo === delivered ? "delivered" : "pending", nextAttemptAt: T0 * 1000 + 9e6 });
    const counts = await s.pruneHistory({ reportsBefore: T0, attemptsBeforeMs: 2000, batch: 100 });
    expect(counts).toEqual({ reports: 4, attempts: 1, counters: 1 });
    expect((await s.listReports({})).map((r) => `${r.outcome}/${r.amount}`).sort()).toEqual(["matched/5", "unmatched/5"]);
    expect((await s.getNotification(retrying!))!.attempts_log.length).toBe(1);
    expect((await s.getNotification(delivered!))!.attempts_log.length).toBe(0);
    expect(await s.pruneHistory({ reportsBefore: T0, attemptsBeforeMs: 2000, batch: 100 })).toEqual({ reports: 0, attempts: 0, counters: 0 });
  });

  test("prune works in batches", async () => {
    const s = ctx.store;
    for (let i = 0; i < 5; i++) await s.insertReport(report({ kind: "heart", outcome: "accepted", amount: null, createdAt: T0 - 10 }));
    expect((await s.pruneHistory({ reportsBefore: T0, attemptsBeforeMs: 0, batch: 2 })).reports).toBe(2);
    expect((await s.listReports({})).length).toBe(3);
  });

  test("backup: a new 0600 SQLite file holding the data, whatever the store; an existing file is never replaced", async () => {
    const s = ctx.store;
    await merchant(s);
    const dir = mkdtempSync(join(tmpdir(), "xpay-contract-backup-"));
    try {
      const target = join(dir, "copy.db");
      await s.backupTo(target);
      expect(statSync(target).mode & 0o777).toBe(0o600);
      const copy = new Database(target, { readonly: true });
      try {
        expect(copy.query("SELECT pid FROM merchants").all()).toEqual([{ pid: 1001 }]);
      } finally {
        copy.close();
      }
      await expect(s.backupTo(target)).rejects.toThrow("exists already");
      expect(existsSync(`${target}-wal`)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
