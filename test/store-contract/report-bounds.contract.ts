// Reports cannot fill the disk (issue 27): an unmatched report past its signer's daily bound is
// counted, not stored (insertBoundedReport and settleReport alike), a matched or duplicate one is
// never held back, instances racing for the last places store exactly the bound, and the retention
// prune takes unmatched money after its own cut while a report that paid an order (matched, or
// assigned by the operator) stays.
import { expect, test } from "bun:test";
import { assignProblem } from "../../src/core/assign-report.ts";
import { because } from "../../src/core/reasons.ts";
import type { ReportBound } from "../../src/core/store.ts";
import { account, claim, create, type Ctx, DAY0, merchant, payUnit, POLICY, report, settleUnit, T0 } from "./harness.ts";

const bound = (max: number, key = "merchant:1001:payment", day = DAY0): ReportBound => ({ key, day, max });

export function reportBoundsContract(ctx: Ctx): void {
  test("insertBoundedReport: unmatched rows past the bound are counted, not stored; other outcomes and other keys are not held back", async () => {
    const s = ctx.store;
    await merchant(s);
    const ids: (number | null)[] = [];
    for (let i = 0; i < 5; i++) ids.push((await s.insertBoundedReport(report({ createdAt: T0 + i }), bound(3))).id);
    expect(ids.map((id) => id !== null)).toEqual([true, true, true, false, false]);
    // Another signer, or the messages of the same one, count apart.
    expect((await s.insertBoundedReport(report({ amount: null }), bound(3, "merchant:1001:message"))).id).not.toBeNull();
    expect((await s.insertBoundedReport(report({ pid: 1002 }), bound(3, "merchant:1002:payment"))).id).not.toBeNull();
    // A heartbeat and a matched row are not unmatched: never bounded.
    expect((await s.insertBoundedReport(report({ kind: "heart", outcome: "accepted", amount: null }), bound(3))).id).not.toBeNull();
    // A new day starts a new count.
    expect((await s.insertBoundedReport(report({ createdAt: T0 + 86_400 }), bound(3, "merchant:1001:payment", DAY0 + 86_400))).id).not.toBeNull();
    expect((await s.listReports({ outcome: "unmatched", limit: 100 })).length).toBe(6);
    expect(await s.listReportBounds({ sinceDay: DAY0, limit: 10 })).toEqual([
      { key: "merchant:1001:payment", day: DAY0 + 86_400, stored: 1, dropped: 0, lastAt: T0 + 86_400 },
      { key: "merchant:1001:payment", day: DAY0, stored: 3, dropped: 2, lastAt: T0 + 4 },
      { key: "merchant:1001:message", day: DAY0, stored: 1, dropped: 0, lastAt: T0 + 10 },
      { key: "merchant:1002:payment", day: DAY0, stored: 1, dropped: 0, lastAt: T0 + 10 },
    ]);
    expect((await s.listReportBounds({ sinceDay: DAY0, minStored: 3, limit: 10 })).map((b) => b.key)).toEqual(["merchant:1001:payment"]);
    expect(await s.listReportBounds({ sinceDay: DAY0 + 2 * 86_400, limit: 10 })).toEqual([]);
  });

  test("settleReport: an unmatched outcome past the bound is not stored (reportId null), a matching report still pays and is stored", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const order = await create(s, { amount: 1000 });
    const b = bound(2);
    const misses = [];
    for (let i = 0; i < 3; i++) misses.push(await s.settleReport({ ...settleUnit(claim({ amount: 500 + i })), bound: b }));
    expect(misses.map((r) => [r.outcome, r.reportId !== null])).toEqual([["unmatched", true], ["unmatched", true], ["unmatched", false]]);
    const paid = await s.settleReport({ ...settleUnit(claim({ amount: order.tradeAmount! })), bound: b });
    expect(paid.outcome).toBe("matched");
    expect(paid.reportId).not.toBeNull();
    expect((await s.listReports({ limit: 100 })).map((r) => r.outcome).sort()).toEqual(["matched", "unmatched", "unmatched"]);
    expect((await s.listReportBounds({ sinceDay: DAY0, limit: 10 }))[0]).toMatchObject({ stored: 2, dropped: 1 });
  });

  test("two instances racing for the last places store exactly the bound", async () => {
    const s = ctx.store;
    await merchant(s);
    const other = await ctx.another();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : s).insertBoundedReport(report({ createdAt: T0 + i }), bound(7))));
    expect(results.filter((r) => r.id !== null).length).toBe(7);
    expect((await s.listReports({ outcome: "unmatched", limit: 100 })).length).toBe(7);
    expect((await s.listReportBounds({ sinceDay: DAY0, limit: 10 }))[0]).toMatchObject({ stored: 7, dropped: 13 });
  });

  test("prune: unmatched money after unmatchedBefore, matched and assigned reports never, the day counters with the other counters", async () => {
    const s = ctx.store;
    await merchant(s);
    await account(s);
    const old = T0 - 100 * 86_400;
    const order = await create(s, { amount: 3000 }, { now: old - 60 });
    const oldMoney = await s.settleReport(settleUnit(claim({ amount: 1234 }), {}, old));
    const assignedMoney = await s.settleReport(settleUnit(claim({ amount: 2999 }), {}, old));
    const assigned = await s.assignReport({
      reportId: assignedMoney.reportId!, tradeNo: order.tradeNo, check: (r, o) => assignProblem(r, o, POLICY.matchWindow),
      pay: () => payUnit(order.tradeNo, old + 30), note: () => because("assigned", { no: order.tradeNo, by: "alice", why: "by hand" }),
    });
    expect(assigned.kind).toBe("assigned");
    await s.insertBoundedReport(report({ createdAt: old }), bound(5, "merchant:1001:payment", old - (old % 86_400)));
    const recentMoney = await s.settleReport(settleUnit(claim({ amount: 4321 }), {}, T0 - 86_400));
    // Without an unmatched cut (0, or absent), unmatched money stays.
    expect((await s.pruneHistory({ reportsBefore: 0, attemptsBeforeMs: 0, batch: 100 })).reports).toBe(0);
    const counts = await s.pruneHistory({ reportsBefore: T0 - 30 * 86_400, unmatchedBefore: T0 - 90 * 86_400, attemptsBeforeMs: 0, batch: 100 });
    expect(counts).toMatchObject({ reports: 2, counters: 1 });
    const left = (await s.listReports({ limit: 100 })).map((r) => r.id).sort((a, b) => a - b);
    expect(left).toEqual([assignedMoney.reportId!, recentMoney.reportId!].sort((a, b) => a - b));
    expect(left).not.toContain(oldMoney.reportId);
    expect(await s.listReportBounds({ sinceDay: 0, limit: 10 })).toEqual([]);
  });
}
