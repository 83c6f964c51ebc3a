// bench:pg's warm-ups (bench/settle.ts untilSettled) end when every instance's JIT compiler was
// quiet in two steps in a row, and never run past their cap. The steps and readings are scripted
// here: what is checked is when the warm-up stops and what it reports.
import { expect, test } from "bun:test";
import { untilSettled } from "../../bench/settle.ts";

/** A warm-up whose step n reads `readings[n]` (ms per instance); counts the steps it ran. */
function scripted(readings: number[][], o: { firstSeconds?: number; cap?: number } = {}) {
  let firsts = 0;
  let steps = 0;
  const run = untilSettled({
    first: async () => void firsts++,
    firstSeconds: o.firstSeconds ?? 2,
    step: async () => void steps++,
    jit: () => {
      const at = steps; // the reading covers the step about to run
      return () => readings[at] ?? [0, 0];
    },
    settledMs: 10,
    cap: o.cap ?? 20,
  });
  return run.then((r) => ({ ...r, firsts, steps }));
}

test("stops after two quiet steps in a row, counting the first warm-up's seconds and one a step", async () => {
  expect(await scripted([[0, 5], [10, 0]])).toEqual({ seconds: 4, lastJitMs: 10, firsts: 1, steps: 2 });
});

test("a busy step in either instance starts the count again", async () => {
  // quiet, busy (second instance), quiet, quiet
  expect(await scripted([[0, 0], [0, 11], [3, 0], [0, 4]])).toEqual({ seconds: 6, lastJitMs: 4, firsts: 1, steps: 4 });
  // quiet, busy (first instance), quiet, busy, quiet, quiet
  expect(await scripted([[1, 0], [40, 0], [0, 0], [12, 0], [0, 0], [0, 0]])).toEqual({ seconds: 8, lastJitMs: 0, firsts: 1, steps: 6 });
});

test("never runs past its cap, and reports the last step's JIT CPU summed over the instances", async () => {
  const busy = Array.from({ length: 50 }, () => [30, 25]);
  expect(await scripted(busy, { cap: 7 })).toEqual({ seconds: 7, lastJitMs: 55, firsts: 1, steps: 5 });
});

test("firstSeconds 0 (BENCH_WARMUP=0): no warm-up at all", async () => {
  const r = await scripted([[100, 100]], { firstSeconds: 0 });
  expect(r.firsts + r.steps).toBe(0);
  expect(r.seconds).toBe(0);
  expect(r.lastJitMs).toBeNaN();
});
