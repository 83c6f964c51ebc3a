// At most N password hashes run at once; the rest wait in order and all finish.
import { expect, test } from "bun:test";
import { verifyPassword, hashPassword } from "../../src/core/admin/credentials.ts";
import { concurrencyLimit } from "../../src/core/admin/hash-slots.ts";

test("never more than the slots at once, every job done, in arrival order, also when one throws", async () => {
  const run = concurrencyLimit(2);
  let now = 0;
  let peak = 0;
  const started: number[] = [];
  const job = (i: number) => run(async () => {
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
  expect(await run(async () => "again")).toBe("again");
});

test("password checks still answer right through the slots", async () => {
  const hash = await hashPassword("correct horse battery");
  const answers = await Promise.all([verifyPassword("correct horse battery", hash), verifyPassword("wrong one here", hash), verifyPassword("x", null)]);
  expect(answers).toEqual([true, false, false]);
});
