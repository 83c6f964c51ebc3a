// The two measurements of `npm run bench:pg`, on one gateway or on several at once:
// - native create: one autocannon per instance, all at the same time, the connections shared out
//   (64 in all: 64 on one instance, 32 on each of two); rates summed, answers checked.
// - report -> paid -> notification, as bench/notify.ts: pending orders created (spread over the
//   instances), then phone-style reports from closed-loop senders, each sent to the instances in
//   turn; a receiver in this process stamps each notification's arrival, and counts repeats.
import autocannon from "autocannon";
import { md5Sign } from "../src/protocols/signing.ts";
import type { Arm } from "./pg-arms.ts";
import { CONNECTIONS, cpuTimes, type LoadResult, percentile, pool, stealPct } from "./lib.ts";
import { createBodies, createOk } from "./native.ts";
import { PID, SECRET } from "./seed.ts";

/** Native create on every instance of the arm at once. */
export async function createLoad(arm: Arm, name: string, seconds: number, notifyUrl: string, tag: string): Promise<LoadResult & { outTradeNos: string[] }> {
  const k = arm.gateways.length;
  const per = Math.floor(CONNECTIONS / k);
  const before = cpuTimes();
  let ok = 0;
  let failed = 0;
  const made: string[] = [];
  const runs = await Promise.all(
    arm.gateways.map((url, i) => {
      // distinct out_trade_nos per instance; enough for 12 000 creates/s each
      const bodies = createBodies(seconds * 12_000, `${tag}-${i}-${Date.now()}-`, notifyUrl);
      const p = pool(bodies.bodies);
      return autocannon({
        url, connections: per, duration: seconds,
        requests: [{
          method: "POST", path: "/xpay/order/create", headers: { "content-type": "application/x-www-form-urlencoded" },
          setupRequest: (req: autocannon.Request) => ({ ...req, body: p.next() }),
          onResponse: (status: number, body: string) => {
            if (createOk(status, body)) ok++;
            else failed++;
          },
        }],
      }).then((r) => {
        if (p.wrapped) console.error(`[bench:pg] ${name}: create pool of instance ${i + 1} ran out; later answers were idempotent repeats`);
        made.push(...bodies.outTradeNos.slice(0, 200));
        return r;
      });
    }),
  );
  const steal = stealPct(before, cpuTimes());
  const sum = (f: (r: autocannon.Result) => number) => runs.reduce((a, r) => a + f(r), 0);
  return {
    name, steal, rps: sum((r) => r.requests.average),
    // of two instances, the slower one's percentiles (the client waits for both)
    p50: Math.max(...runs.map((r) => r.latency.p50)), p99: Math.max(...runs.map((r) => r.latency.p99)),
    requests: sum((r) => r.requests.total), ok, failed, errors: sum((r) => r.errors + r.timeouts), outTradeNos: made,
  };
}

export interface CountingReceiver {
  url: string;
  /** first arrival of each trade_no (performance.now()) */
  arrivals: Map<string, number>;
  /** notifications that came again for a trade_no already answered "success" */
  repeats: number;
  stop(): void;
}

export function startCountingReceiver(): CountingReceiver {
  const arrivals = new Map<string, number>();
  const r: CountingReceiver = { url: "", arrivals, repeats: 0, stop: () => {} };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const at = performance.now();
      const q = new URL(req.url).searchParams;
      const params = req.method === "POST" ? new URLSearchParams(await req.text()) : q;
      const t = params.get("trade_no");
      if (t && arrivals.has(t)) r.repeats++;
      else if (t) arrivals.set(t, at);
      return new Response("success");
    },
  });
  r.url = `http://127.0.0.1:${server.port}/notify`;
  r.stop = () => server.stop(true);
  return r;
}

async function inParallel<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>, until = Infinity): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < items.length && performance.now() < until) {
        const at = i++;
        await fn(items[at]!, at);
      }
    }),
  );
}

export interface NotifyFigures {
  orders: number;
  reports: number;
  matched: number;
  failed: number;
  delivered: number;
  repeats: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  reportP99: number;
  steal: number;
}

/** beforeReports: runs once the pending orders are made, right before the measured reports (the baseline). */
export async function notifyLoad(
  arm: Arm, receiver: CountingReceiver, o: { orders: number; concurrency: number; seconds: number; beforeReports?: () => Promise<void> },
): Promise<NotifyFigures> {
  const prefix = `R${Date.now()}-`;
  const { bodies } = createBodies(o.orders, prefix, receiver.url);
  const at = (i: number) => arm.gateways[i % arm.gateways.length]!;
  let createFailed = 0;
  await inParallel(bodies, 32, async (body, i) => {
    const r = await fetch(`${at(i)}/xpay/order/create`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    if (!createOk(r.status, await r.text())) createFailed++;
  });
  if (createFailed) throw new Error(`${createFailed} of ${o.orders} orders for the notification run were not created`);
  const pending = await arm.pending(prefix);
  await o.beforeReports?.();

  const before = cpuTimes();
  const sent = new Map<string, number>();
  const reportMs: number[] = [];
  let matched = 0;
  let failed = 0;
  const started = performance.now();
  await inParallel(
    pending,
    o.concurrency,
    async (order, i) => {
      const p: Record<string, string> = {
        amount: String(order.trade_amount), pay_type: "alipay", channel_code: order.code, channel_account_id: String(order.account_id),
        coll_user: "bench-phone", timestamp: String(Date.now()), pay_time: String(Date.now()),
      };
      const body = JSON.stringify({ ...p, sign: md5Sign(p, SECRET, ["sign"]) });
      const t0 = performance.now();
      sent.set(order.trade_no, t0);
      const r = await fetch(`${at(i)}/api/report/${PID}/pc`, { method: "POST", headers: { "content-type": "application/json" }, body });
      const answer = (await r.json()) as { code: number; data?: { outcome?: string; trade_no?: string } };
      reportMs.push(performance.now() - t0);
      if (answer.code === 200 && answer.data?.outcome === "matched" && answer.data.trade_no === order.trade_no) matched++;
      else failed++;
    },
    started + o.seconds * 1000,
  );
  // the notifications still in flight (a few ms normally; 10 s at most)
  const deadline = performance.now() + 10_000;
  const delivered = () => [...sent.keys()].filter((t) => receiver.arrivals.has(t)).length;
  while (delivered() < matched && performance.now() < deadline) await Bun.sleep(20);
  const steal = stealPct(before, cpuTimes());

  const latencies: number[] = [];
  let last = started;
  for (const [t, t0] of sent) {
    const a = receiver.arrivals.get(t);
    if (a === undefined) continue;
    latencies.push(a - t0);
    last = Math.max(last, a);
  }
  latencies.sort((a, b) => a - b);
  reportMs.sort((a, b) => a - b);
  return {
    orders: pending.length, reports: sent.size, matched, failed, delivered: latencies.length, repeats: receiver.repeats,
    perSecond: latencies.length / ((last - started) / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN, reportP99: percentile(reportMs, 99), steal,
  };
}
