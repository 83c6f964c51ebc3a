// replay.ts: how the PostgreSQL store runs the core's synchronous rules over data it must fetch
// asynchronously. No server needed: the fetches here are plain promises that count their calls.
import { expect, test } from "bun:test";
import { allocationRule } from "../../src/core/allocation.ts";
import { Answers, replay } from "../../src/store/postgres/replay.ts";

test("the rule runs again after each fetch, every question is fetched once, and the last run decides", async () => {
  const fetched: string[] = [];
  const answers = new Answers();
  const ask = (k: string) => answers.ask(k, async () => (fetched.push(k), k.length));
  let runs = 0;
  const result = await replay(() => (runs++, ask("a") + ask("bb") + ask("a")), answers);
  expect(result).toBe(4);
  expect(fetched).toEqual(["a", "bb"]);
  expect(runs).toBe(3);
});

test("a rule that swallows the stop and answers anyway is not believed: it runs again with the answer", async () => {
  const answers = new Answers();
  const result = await replay(() => {
    try {
      return answers.ask("x", async () => "fetched");
    } catch {
      return "guessed without the fact";
    }
  }, answers);
  expect(result).toBe("fetched");
});

test("the rule's own errors pass through; a fetch that fails fails the unit", async () => {
  await expect(replay(() => {
    throw new Error("rule broke");
  })).rejects.toThrow("rule broke");
  const answers = new Answers();
  await expect(replay(() => answers.ask("k", async () => Promise.reject(new Error("server gone"))), answers)).rejects.toThrow("server gone");
});

test("the core's allocation rule decides over fetched answers exactly as over a synchronous view", async () => {
  const account = { id: 7, pid: 0, payType: "alipay", code: "c", name: "n", remark: "", qrcode: "q", scheme: "", minAmount: 0, maxAmount: 0, dayAmount: 0, sort: 0, enabled: true, useSeq: 0, lastSeenAt: 0, createdAt: 0, reportGroup: 0, paidToday: 0 };
  const taken = new Set([1000, 999]);
  const rule = allocationRule({ pid: 1001, payType: "alipay", amount: 1000, now: 5000, dayStart: 0 }, { maxOffset: 10, maxOffsetPercent: 100, direction: "down", matchWindow: 600, requireOnline: false, heartbeatTimeout: 90 });
  const direct = rule({ candidateAccounts: () => [{ ...account }], takenTradeAmounts: () => taken });
  const answers = new Answers();
  const replayed = await replay(() => rule({
    candidateAccounts: () => answers.ask("accounts", async () => [{ ...account }]).map((a) => ({ ...a })),
    takenTradeAmounts: () => answers.ask("taken", async () => taken),
  }), answers);
  expect(replayed).toEqual(direct);
  expect(replayed).toMatchObject({ ok: true, tradeAmount: 998 });
});
