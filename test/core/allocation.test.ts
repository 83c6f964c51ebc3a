// The allocation rule reads taken amounts in a narrow range first and, only when it is full, the
// next amounts in reads four times as wide each time, up to max_offset; either way it picks the
// first free amount in order.
import { describe, expect, test } from "bun:test";
import { type AllocationPolicy, allocationRule, type AllocationView, type CandidateAccount } from "../../src/core/allocation.ts";

const account = { id: 7, sort: 0, useSeq: 0, minAmount: 0, maxAmount: 0, dayAmount: 0, lastSeenAt: 0, paidToday: 0 } as CandidateAccount;
const policy = (maxOffset: number, direction: "down" | "up" = "down"): AllocationPolicy => ({ maxOffset, maxOffsetPercent: 100, direction, matchWindow: 600, requireOnline: false, heartbeatTimeout: 300 });

function view(taken: number[]) {
  const ranges: { min: number; max: number }[] = [];
  const v: AllocationView = {
    candidateAccounts: () => [account],
    takenTradeAmounts: (_id, _since, range) => {
      ranges.push(range);
      return new Set(taken.filter((t) => t >= range.min && t <= range.max));
    },
  };
  return { v, ranges };
}

const order = { pid: 1001, payType: "alipay", amount: 1000, now: 1_800_000_000, dayStart: 0 };

describe("allocationRule", () => {
  test("a free amount near the order amount: one narrow read", () => {
    const { v, ranges } = view([1000, 999]);
    expect(allocationRule(order, policy(1000))(v)).toEqual({ ok: true, account, tradeAmount: 998 });
    expect(ranges).toEqual([{ min: 984, max: 1000 }]);
  });

  test("the narrow range full: the next amounts are read, the first free amount wins", () => {
    const taken = Array.from({ length: 40 }, (_, i) => 1000 + i);
    const { v, ranges } = view(taken);
    expect(allocationRule(order, policy(100, "up"))(v)).toEqual({ ok: true, account, tradeAmount: 1040 });
    expect(ranges).toEqual([{ min: 1000, max: 1016 }, { min: 1017, max: 1084 }]);
  });

  test("a long run of taken amounts is passed in reads four times as wide each time, never past max_offset", () => {
    const { v, ranges } = view(Array.from({ length: 300 }, (_, i) => 1000 - i));
    expect(allocationRule(order, policy(1000))(v)).toEqual({ ok: true, account, tradeAmount: 700 });
    expect(ranges).toEqual([{ min: 984, max: 1000 }, { min: 916, max: 983 }, { min: 644, max: 915 }]);
    const full = view(Array.from({ length: 101 }, (_, i) => 1000 + i));
    expect(allocationRule(order, policy(100, "up"))(full.v)).toEqual({ ok: false, reason: "no free payable amount on any account; try again later" });
    expect(full.ranges).toEqual([{ min: 1000, max: 1016 }, { min: 1017, max: 1084 }, { min: 1085, max: 1100 }]);
  });

  test("down from a small amount: nothing under 0.01 is read or given", () => {
    const { v, ranges } = view([5, 4, 3]);
    expect(allocationRule({ ...order, amount: 5 }, policy(1000))(v)).toEqual({ ok: true, account, tradeAmount: 2 });
    expect(ranges).toEqual([{ min: 1, max: 5 }]);
    const full = view([5, 4, 3, 2, 1]);
    expect(allocationRule({ ...order, amount: 5 }, policy(1000))(full.v)).toEqual({ ok: false, reason: "no free payable amount on any account; try again later" });
    expect(full.ranges).toEqual([{ min: 1, max: 5 }]);
  });

  test("every amount within max_offset taken: no allocation", () => {
    const { v } = view(Array.from({ length: 11 }, (_, i) => 1000 - i));
    expect(allocationRule(order, policy(10))(v)).toEqual({ ok: false, reason: "no free payable amount on any account; try again later" });
  });
});
