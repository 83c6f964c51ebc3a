// The console's filters that the store narrows: the outbox by status, merchant (the order's pid) and
// creation time (milliseconds, `toMs` exclusive), and reports and audit entries by time (seconds, `to`
// exclusive), newest first as before.
import { expect, test } from "bun:test";
import { account, create, type Ctx, merchant, payUnit, report, T0 } from "./harness.ts";

const MS = T0 * 1000;

export function dateFiltersContract(ctx: Ctx): void {
  test("outbox: by merchant, by creation time, with the status, newest first", async () => {
    const s = ctx.store;
    await merchant(s, 1001);
    await merchant(s, 1002);
    await account(s);
    const made: { tradeNo: string; pid: number; at: number }[] = [];
    for (const [i, pid] of [1001, 1002, 1001, 1002, 1001].entries()) {
      const o = await create(s, { pid, amount: 2000 + i });
      await s.payOrder({ ...payUnit(o.tradeNo, T0 + i * 100), nowMs: MS + i * 100_000 });
      made.push({ tradeNo: o.tradeNo, pid, at: MS + i * 100_000 });
    }
    const nos = (rows: { tradeNo: string }[]) => rows.map((r) => r.tradeNo);
    const pick = (...i: number[]) => i.map((k) => made[k]!.tradeNo);
    expect(nos(await s.listNotifications({}))).toEqual(pick(4, 3, 2, 1, 0));
    expect(nos(await s.listNotifications({ pid: 1002 }))).toEqual(pick(3, 1));
    expect(nos(await s.listNotifications({ pid: 1001, limit: 2 }))).toEqual(pick(4, 2));
    expect(nos(await s.listNotifications({ pid: 4242 }))).toEqual([]);
    // From inclusive, to exclusive.
    expect(nos(await s.listNotifications({ fromMs: MS + 100_000, toMs: MS + 300_000 }))).toEqual(pick(2, 1));
    expect(nos(await s.listNotifications({ fromMs: MS + 100_001 }))).toEqual(pick(4, 3, 2));
    expect(nos(await s.listNotifications({ toMs: MS + 100_000 }))).toEqual(pick(0));
    expect(nos(await s.listNotifications({ pid: 1001, fromMs: MS + 1, toMs: MS + 500_000 }))).toEqual(pick(4, 2));
    expect(nos(await s.listNotifications({ status: "pending", pid: 1002, toMs: MS + 200_000 }))).toEqual(pick(1));
    expect(nos(await s.listNotifications({ status: "delivered", pid: 1002 }))).toEqual([]);
  });

  test("reports and audit entries: by time, from inclusive, to exclusive", async () => {
    const s = ctx.store;
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await s.insertReport(report({ createdAt: T0 + i * 60, amount: 100 + i }))).id);
    const [r0, r1, r2, r3] = ids as [number, number, number, number];
    const seen = async (q: { from?: number; to?: number }) => (await s.browse.searchReports({ ...q, limit: 10 })).map((r) => r.id);
    expect(await seen({ from: T0 + 60, to: T0 + 180 })).toEqual([r2, r1]);
    expect(await seen({ from: T0 + 61 })).toEqual([r3, r2]);
    expect(await seen({ to: T0 + 60 })).toEqual([r0]);
    expect((await s.browse.searchReports({ from: T0, to: T0 + 240, beforeId: r2, limit: 10 })).map((r) => r.id)).toEqual([r1, r0]);

    for (let i = 0; i < 4; i++) await s.admin.appendAudit({ at: T0 + i * 60, actor: "cli", action: "test.mark", target: `t${i}`, ip: "", before: null, after: null, reason: "" });
    const marks = async (q: { from?: number; to?: number; afterId?: number }) => (await s.admin.listAudit({ ...q, limit: 10 })).map((e) => e.target);
    expect(await marks({ from: T0 + 60, to: T0 + 180 })).toEqual(["t2", "t1"]);
    expect(await marks({ to: T0 + 1 })).toEqual(["t0"]);
    expect(await marks({ from: T0 + 120, afterId: 1 })).toEqual(["t3", "t2"]);
  });
}
