// bench:pg waits for the servers' JIT compilers to settle before it measures (bench/pg.ts
// warmUntilCompiled), reading each JITWorker thread's CPU from /proc. The threads come and go, so
// two readings are compared thread by thread: summed per process, a thread that ended made the
// difference negative, and the warm-up stopped as "settled" while the compiler was busy.
import { expect, test } from "bun:test";
import { jitSince, jitThreadsMs } from "../../bench/pg-cost.ts";

test("JIT CPU between two readings: by thread, a new thread from 0, an ended one not subtracted", () => {
  const before = new Map([["101", 500], ["102", 300]]);
  // 101 went on (+40), 102 ended, 103 started and used 20
  const after = new Map([["101", 540], ["103", 20]]);
  expect(jitSince(before, after)).toBe(60);
  expect(jitSince(after, after)).toBe(0);
});

test("this process's JIT threads, by thread id, in milliseconds; nothing for a process that is gone", () => {
  for (let i = 0; i < 200_000; i++) JSON.stringify({ i }); // give the compiler something to do
  const threads = jitThreadsMs(process.pid);
  expect(threads.size).toBeGreaterThan(0);
  for (const [tid, ms] of threads) {
    expect(tid).toMatch(/^\d+$/);
    expect(ms % 10).toBe(0); // clock ticks of 10 ms
    expect(ms).toBeGreaterThanOrEqual(0);
  }
  expect(jitThreadsMs(2 ** 22 + 1).size).toBe(0); // above Linux's largest pid
});
