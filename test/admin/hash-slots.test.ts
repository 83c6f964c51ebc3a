// At most N password hashes run at once. Known operators (`run`) go ahead of every stranger waiting
// and are never refused; strangers (`tryRun`) wait in order behind them, or get BUSY at once when
// the bound of waiting strangers is reached (issue 27: a flood queued argon2 without limit).
import { expect, test } from "bun:test";
import { hashPassword, verifyLogin, verifyPassword } from "../../src/core/admin/credentials.ts";
import { BUSY, concurrencyLimit, PASSWORD_QUEUE, passwordSlots } from "../../src/core/admin/hash-slots.ts";

/** A job that runs until released, recording its start. */
function gate(started: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { work: async () => (started.push(name), await done, name), open };
}

test("never more than the slots at once, every job done, in arrival order, also when one throws", async () => {
  const slots = concurrencyLimit(2);
  let now = 0;
  let peak = 0;
  const started: number[] = [];
  const job = (i: number) => slots.tryRun(async () => {
    started.push(i);
    peak = Math.max(peak, ++now);
    await Bun.sleep(5);
    now--;
    if (i === 3) throw new Error("boom");
    return i;
  });
  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5, 6].map(job));
  expect(peak).toBe(2);
  expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
  // The slots are free again afterwards.
  expect(await slots.run(async () => "again")).toBe("again");
  expect(slots.load()).toEqual({ running: 0, known: 0, strangers: 0 });
});

test("strangers over the bound get BUSY at once; a known operator is never refused and goes before every stranger waiting", async () => {
  const slots = concurrencyLimit(1, 2);
  const started: string[] = [];
  const first = gate(started, "s0");
  const running = slots.tryRun(first.work);
  const waiting = [gate(started, "s1"), gate(started, "s2")];
  const queued = waiting.map((g) => slots.tryRun(g.work));
  expect(slots.full()).toBe(true);
  const t0 = performance.now();
  expect(await slots.tryRun(async () => "never")).toBe(BUSY);
  // At once: a wait for a slot would last until `first` opens, below; the bound only leaves room for a
  // loaded machine's pause (50 ms was within one).
  expect(performance.now() - t0).toBeLessThan(1000);
  const known = gate(started, "known");
  const operator = slots.run(known.work); // past the bound, still queued
  expect(slots.load()).toEqual({ running: 1, known: 1, strangers: 2 });
  first.open();
  await running;
  await Bun.sleep(1);
  expect(started).toEqual(["s0", "known"]); // the known operator took the freed slot, ahead of s1 and s2
  known.open();
  for (const g of waiting) g.open();
  expect(await operator).toBe("known");
  expect(await Promise.all(queued)).toEqual(["s1", "s2"]);
  expect(started).toEqual(["s0", "known", "s1", "s2"]);
});

test("the console's password queue is bounded; hashing and checks still answer right through it", async () => {
  expect(Number.isFinite(PASSWORD_QUEUE)).toBe(true);
  expect(passwordSlots.full()).toBe(false);
  const hash = await hashPassword("correct horse battery");
  const answers = await Promise.all([
    verifyPassword("correct horse battery", hash),
    verifyPassword("wrong one here", hash),
    verifyPassword("x", null),
    verifyLogin("correct horse battery", hash, false),
    verifyLogin("correct horse battery", hash, true),
    verifyLogin("x", "not a hash", true),
  ]);
  expect(answers).toEqual([true, false, false, true, true, false]);
});
