// The bench's latency percentiles come from each answer's own time (bench/lib.ts answerTimes), not
// from autocannon's histogram, which keeps whole milliseconds cut down (10.74 ms read as 10).
import { expect, test } from "bun:test";
import { answerPercentiles } from "../../bench/lib.ts";

test("p50, p99 and the mean keep the fraction of a millisecond", () => {
  // 100 answers: 98 at 4.2 ms, then 10.74 and 12.5: the 99th is 10.74 (autocannon's histogram: 10);
  // the mean (411.6 + 23.24) / 100 = 4.3484, to two decimals.
  const times = [...Array.from({ length: 98 }, () => 4.2), 12.5, 10.74];
  expect(answerPercentiles(times)).toEqual({ p50: 4.2, p99: 10.74, mean: 4.35 });
});

test("the order the answers came in does not matter, and times are read as numbers, not text", () => {
  // 200 answers: the 198th is 9.5. Sorted as text it would be 10.25 ("10.25" < "100" < "9.5").
  const times = [100, 9.5, 10.25, ...Array.from({ length: 197 }, (_, i) => 1 + i / 1000)];
  expect(answerPercentiles(times).p99).toBe(9.5);
  expect(answerPercentiles(times).p50).toBe(1.1);
});

test("no answers: no percentile", () => {
  const r = answerPercentiles([]);
  expect(Number.isNaN(r.p50) && Number.isNaN(r.p99) && Number.isNaN(r.mean)).toBe(true);
});
