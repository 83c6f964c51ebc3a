// Warm-ups that last until the servers' JIT compilers have settled (bench:pg). Each `xpay serve`
// process compiles the request path on its own, as often as it runs it: a fixed warm-up shared by
// two instances left both compiling in the measured run (docs/benchmarks.md, 2026-12-01 03:23).

/** What a warm-up took: its seconds, and the last step's JIT CPU summed over the instances, ms. */
export interface Settled {
  seconds: number;
  lastJitMs: number;
}

/**
 * Runs `first` (`firstSeconds` of load), then `step` (one second of load) until every instance's
 * JIT threads used at most `settledMs` of CPU in each of the last two steps (the compiler works in
 * bursts), or until `cap` seconds have passed. `jit` reads the JIT CPU each instance used since the
 * reading it returns a function for (bench/pg-cost.ts jitThreadsMs and jitSince, per instance).
 * `firstSeconds` 0: no warm-up at all.
 */
export async function untilSettled(o: {
  first: () => Promise<unknown>;
  firstSeconds: number;
  step: () => Promise<unknown>;
  jit: () => () => number[];
  settledMs: number;
  cap: number;
}): Promise<Settled> {
  if (o.firstSeconds <= 0) return { seconds: 0, lastJitMs: NaN };
  await o.first();
  let seconds = o.firstSeconds;
  let settled = 0;
  for (;;) {
    const since = o.jit();
    await o.step();
    seconds++;
    const jit = since();
    settled = jit.every((ms) => ms <= o.settledMs) ? settled + 1 : 0;
    if (settled >= 2 || seconds >= o.cap) return { seconds, lastJitMs: jit.reduce((a, b) => a + b, 0) };
  }
}
