// report -> paid -> notification delivered. Pending orders are created with notify_url pointing at
// a receiver in this process; phone-style amount reports (/api/report/{pid}/pc, MD5-signed) are
// sent by CONCURRENCY closed-loop senders; the receiver stamps each notification's arrival, so the
// latency is report sent -> notification received, on one clock.
import { Database } from "bun:sqlite";
import { md5Sign } from "../src/protocols/signing.ts";
import { percentile } from "./lib.ts";
import { createBodies, createOk } from "./native.ts";
import { PID, SECRET } from "./seed.ts";

export interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  stop(): void;
}

export function startReceiver(): Receiver {
  const arrivals = new Map<string, number>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const at = performance.now();
      const q = new URL(req.url).searchParams;
      const params = req.method === "POST" ? new URLSearchParams(await req.text()) : q;
      const t = params.get("trade_no");
      if (t && !arrivals.has(t)) arrivals.set(t, at);
      return new Response("success");
    },
  });
  return { url: `http://127.0.0.1:${server.port}/notify`, arrivals, stop: () => server.stop(true) };
}

async function inParallel<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>, until = Infinity): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < items.length && performance.now() < until) await fn(items[i++]!);
    }),
  );
}

export interface NotifyResult {
  orders: number;
  reports: number;
  matched: number;
  failed: number;
  delivered: number;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
  reportP99: number;
}

export async function notifyScenario(o: { server: string; db: string; receiver: Receiver; orders: number; concurrency: number; seconds: number }): Promise<NotifyResult> {
  const prefix = `R${Date.now()}-`;
  const { bodies } = createBodies(o.orders, prefix, o.receiver.url);
  let createFailed = 0;
  await inParallel(bodies, 32, async (body) => {
    const r = await fetch(`${o.server}/xpay/order/create`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    if (!createOk(r.status, await r.text())) createFailed++;
  });
  if (createFailed) throw new Error(`${createFailed} of ${o.orders} orders for the notification run were not created`);
  const db = new Database(o.db, { readonly: true });
  const pending = db
    .query("SELECT o.trade_no, o.trade_amount, o.account_id, a.code FROM orders o JOIN channel_accounts a ON a.id = o.account_id WHERE o.pid = $pid AND o.out_trade_no LIKE $p")
    .all({ $pid: PID, $p: `${prefix}%` }) as { trade_no: string; trade_amount: number; account_id: number; code: string }[];
  db.close();

  const sent = new Map<string, number>();
  const reportMs: number[] = [];
  let matched = 0;
  let failed = 0;
  const started = performance.now();
  await inParallel(
    pending,
    o.concurrency,
    async (order) => {
      const p: Record<string, string> = {
        amount: String(order.trade_amount), pay_type: "alipay", channel_code: order.code, channel_account_id: String(order.account_id),
        coll_user: "bench-phone", timestamp: String(Date.now()), pay_time: String(Date.now()),
      };
      const body = JSON.stringify({ ...p, sign: md5Sign(p, SECRET, ["sign"]) });
      const t0 = performance.now();
      sent.set(order.trade_no, t0);
      const r = await fetch(`${o.server}/api/report/${PID}/pc`, { method: "POST", headers: { "content-type": "application/json" }, body });
      const answer = (await r.json()) as { code: number; data?: { outcome?: string; trade_no?: string } };
      reportMs.push(performance.now() - t0);
      if (answer.code === 200 && answer.data?.outcome === "matched" && answer.data.trade_no === order.trade_no) matched++;
      else failed++;
    },
    started + o.seconds * 1000,
  );
  // Wait for the notifications still in flight (a few ms normally; 10 s at most).
  const deadline = performance.now() + 10_000;
  const delivered = () => [...sent.keys()].filter((t) => o.receiver.arrivals.has(t)).length;
  while (delivered() < matched && performance.now() < deadline) await Bun.sleep(20);

  const latencies: number[] = [];
  let last = started;
  for (const [t, t0] of sent) {
    const at = o.receiver.arrivals.get(t);
    if (at === undefined) continue;
    latencies.push(at - t0);
    last = Math.max(last, at);
  }
  latencies.sort((a, b) => a - b);
  reportMs.sort((a, b) => a - b);
  return {
    orders: pending.length, reports: sent.size, matched, failed, delivered: latencies.length,
    p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? NaN,
    perSecond: latencies.length / ((last - started) / 1000), reportP99: percentile(reportMs, 99),
  };
}
