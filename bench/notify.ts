// report -> paid -> notification delivered. Pending orders are created with notify_url pointing at
// a receiver in this process; phone-style amount reports (/api/report/0/pc, MD5-signed with the
// secret of the operator's phone that watches the order's account) are sent by CONCURRENCY
// closed-loop senders; the receiver stamps each notification's arrival, so the latency is report
// sent -> notification received, on one clock.
import { Database } from "bun:sqlite";
import { md5Sign } from "../src/protocols/signing.ts";
import { cpuTimes, percentile, stealPct } from "./lib.ts";
import { createBodies, createOk } from "./native.ts";
import { phoneKey, PID } from "./seed.ts";
import { PUBLIC_TRADE_NO_SQL } from "../src/store/trade-no.ts";

export interface Receiver {
  url: string;
  /** first arrival of each trade_no (performance.now()) */
  arrivals: Map<string, number>;
  /** notifications that came again for a trade_no already answered "success" */
  repeats: number;
  stop(): void;
}

export function startReceiver(): Receiver {
  const arrivals = new Map<string, number>();
  const r: Receiver = { url: "", arrivals, repeats: 0, stop: () => {} };
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

export async function inParallel<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>, until = Infinity): Promise<void> {
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

/** A pending order as the phone reports it: its payable amount on its account. */
export interface PendingOrder {
  trade_no: string;
  trade_amount: number;
  account_id: number;
  code: string;
}

/** The amount report the phone watching the order's account sends for it (/api/report/0/pc, JSON). */
export function phoneReport(order: Pick<PendingOrder, "trade_amount" | "account_id" | "code">): string {
  const p: Record<string, string> = {
    amount: String(order.trade_amount), pay_type: "alipay", channel_code: order.code, channel_account_id: String(order.account_id),
    coll_user: "bench-phone", timestamp: String(Date.now()), pay_time: String(Date.now()),
  };
  return JSON.stringify({ ...p, sign: md5Sign(p, phoneKey(order.code), ["sign"]) });
}

/** Where the scenario runs: the gateways (requests go to them in turn) and how it finds its pending orders. */
export interface NotifyTarget {
  gateways: string[];
  /** the pending orders whose out_trade_no starts with prefix */
  pending(prefix: string): Promise<PendingOrder[]>;
}

export interface NotifyResult {
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
  /** CPU of this process (the senders and the receiver: the load generator) per notification, ms */
  clientCpu: number;
  /** CPU stolen by the hypervisor during the reports, % */
  steal: number;
}

/** beforeReports: runs once the pending orders are made, right before the measured reports (a baseline run). */
export async function notifyLoad(
  target: NotifyTarget, receiver: Receiver, o: { orders: number; concurrency: number; seconds: number; beforeReports?: () => Promise<void> },
): Promise<NotifyResult> {
  const prefix = `R${Date.now()}-`;
  const { bodies } = createBodies(o.orders, prefix, receiver.url);
  const at = (i: number) => target.gateways[i % target.gateways.length]!;
  let createFailed = 0;
  await inParallel(bodies, 32, async (body, i) => {
    const r = await fetch(`${at(i)}/xpay/order/create`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    if (!createOk(r.status, await r.text())) createFailed++;
  });
  if (createFailed) throw new Error(`${createFailed} of ${o.orders} orders for the notification run were not created`);
  const pending = await target.pending(prefix);
  // Signed before the run, as the create scenario's bodies are: signing in the senders would take
  // CPU from the server on this 2-core machine.
  const reports = pending.map(phoneReport);
  await o.beforeReports?.();

  const before = cpuTimes();
  const clientBefore = process.cpuUsage();
  const sent = new Map<string, number>();
  const reportMs: number[] = [];
  let matched = 0;
  let failed = 0;
  const started = performance.now();
  await inParallel(
    pending,
    o.concurrency,
    async (order, i) => {
      const body = reports[i]!;
      const t0 = performance.now();
      sent.set(order.trade_no, t0);
      const r = await fetch(`${at(i)}/api/report/0/pc`, { method: "POST", headers: { "content-type": "application/json" }, body });
      const answer = (await r.json()) as { code: number; data?: { outcome?: string; trade_no?: string } };
      reportMs.push(performance.now() - t0);
      if (answer.code === 200 && answer.data?.outcome === "matched" && answer.data.trade_no === order.trade_no) matched++;
      else failed++;
    },
    started + o.seconds * 1000,
  );
  // Wait for the notifications still in flight (a few ms normally; 10 s at most).
  const deadline = performance.now() + 10_000;
  const delivered = () => [...sent.keys()].filter((t) => receiver.arrivals.has(t)).length;
  while (delivered() < matched && performance.now() < deadline) await Bun.sleep(20);
  const steal = stealPct(before, cpuTimes());
  const client = process.cpuUsage(clientBefore);

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
    clientCpu: (client.user + client.system) / 1000 / latencies.length,
  };
}

/**
 * `warmup` seconds of reports on orders of their own first, not measured, as every other scenario
 * has its warm-up; then the measured run (its repeats only). Without it, a server's first second of
 * reports (the report path's code and statements new to it, right after the creates that made the
 * pending orders) made most of PostgreSQL's p99 (docs/benchmarks.md, 2026-11-30 21:50).
 */
export async function warmedNotifyLoad(
  target: NotifyTarget, receiver: Receiver, o: Parameters<typeof notifyLoad>[2] & { warmup: number },
): Promise<NotifyResult> {
  if (o.warmup > 0) await notifyLoad(target, receiver, { orders: Math.ceil(o.orders * (o.warmup / o.seconds)), concurrency: o.concurrency, seconds: o.warmup });
  const repeatsBefore = receiver.repeats;
  const r = await notifyLoad(target, receiver, o);
  return { ...r, repeats: r.repeats - repeatsBefore };
}

/** `npm run bench`'s scenario: one gateway on a SQLite file, its pending orders read from the file; warmed (warmedNotifyLoad). */
export async function notifyScenario(o: {
  server: string; db: string; receiver: Receiver; orders: number; concurrency: number; seconds: number; warmup: number;
  /** runs once the measured run's orders are made, right before its reports (the paired baseline) */
  beforeReports?: () => Promise<void>;
}): Promise<NotifyResult> {
  const pending = async (prefix: string) => {
    const db = new Database(o.db, { readonly: true });
    try {
      return db
        .query(`SELECT ${PUBLIC_TRADE_NO_SQL} AS trade_no, o.trade_amount, o.account_id, a.code FROM orders o JOIN channel_accounts a ON a.id = o.account_id WHERE o.pid = $pid AND o.out_trade_no LIKE $p`)
        .all({ $pid: PID, $p: `${prefix}%` }) as PendingOrder[];
    } finally {
      db.close();
    }
  };
  return warmedNotifyLoad({ gateways: [o.server], pending }, o.receiver, o);
}
