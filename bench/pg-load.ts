// The two measurements of `npm run bench:pg`, on one gateway or on several at once:
// - native create: one autocannon per instance, all at the same time, the connections shared out
//   (64 in all: 64 on one instance, 32 on each of two); rates summed, answers checked.
// - report -> paid -> notification: bench/notify.ts notifyLoad with the arm's instances as its
//   gateways (pending orders created over them, each report sent to them in turn; the receiver
//   stamps each notification's arrival and counts repeats).
import autocannon from "autocannon";
import type { Arm } from "./pg-arms.ts";
import { answerPercentiles, answerTimes, CONNECTIONS, cpuTimes, type LoadResult, pool, stealPct } from "./lib.ts";
import { createBodies, createOk } from "./native.ts";

/** Signed create bodies for each instance of an arm, distinct out_trade_nos per instance. */
export type ArmBodies = ReturnType<typeof createBodies>[];

/**
 * The bodies of a create run on the arm, made before it starts and outside what it measures: signing
 * 160 000 takes about 0.9 s, and made between one instance's autocannon and the next's (as until
 * 2026-12-01) it held the first one's 8 s without requests and was counted as the load generator's
 * CPU per create, twice over with two instances.
 */
export function armBodies(arm: Arm, seconds: number, notifyUrl: string, tag: string): ArmBodies {
  // enough for 20 000 creates/s in all (SQLite's arm made 12 000-16 000, and a warm-up's second ran
  // out of 12 000), shared out over the instances as the connections are: held in memory for the run
  const each = Math.ceil((seconds * 20_000) / arm.gateways.length);
  return arm.gateways.map((_, i) => createBodies(each, `${tag}-${i}-${Date.now()}-`, notifyUrl));
}

/** Native create on every instance of the arm at once, each sending its own of `bodies` (armBodies). */
export async function createLoad(arm: Arm, name: string, seconds: number, bodies: ArmBodies): Promise<LoadResult & { outTradeNos: string[] }> {
  const k = arm.gateways.length;
  const per = Math.floor(CONNECTIONS / k);
  const before = cpuTimes();
  let ok = 0;
  let failed = 0;
  const made: string[] = [];
  const runs = await Promise.all(
    arm.gateways.map((url, i) => {
      const mine = bodies[i]!;
      const p = pool(mine.bodies);
      const run = autocannon({
        url, connections: per, duration: seconds,
        requests: [{
          method: "POST", path: "/xpay/order/create", headers: { "content-type": "application/x-www-form-urlencoded" },
          setupRequest: (req: autocannon.Request) => ({ ...req, body: p.next() }),
          onResponse: (status: number, body: string) => {
            if (createOk(status, body)) ok++;
            else failed++;
          },
        }],
      });
      const times = answerTimes(run);
      return run.then((r) => {
        if (p.wrapped) console.error(`[bench:pg] ${name}: create pool of instance ${i + 1} ran out; later answers were idempotent repeats`);
        made.push(...mine.outTradeNos.slice(0, 200));
        return { r, ...answerPercentiles(times) };
      });
    }),
  );
  const steal = stealPct(before, cpuTimes());
  const sum = (f: (r: autocannon.Result) => number) => runs.reduce((a, x) => a + f(x.r), 0);
  return {
    name, steal, rps: sum((r) => r.requests.average),
    // of two instances, the slower one's percentiles (the client waits for both)
    p50: Math.max(...runs.map((x) => x.p50)), p99: Math.max(...runs.map((x) => x.p99)), mean: Math.max(...runs.map((x) => x.mean)),
    requests: sum((r) => r.requests.total), ok, failed, errors: sum((r) => r.errors + r.timeouts), outTradeNos: made,
  };
}
