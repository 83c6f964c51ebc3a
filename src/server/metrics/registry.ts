// The Prometheus side of GatewayMetrics (core/metrics.ts): one prom-client Registry per Gateway
// (never the global one, so several gateways in one process do not collide). Counters move on
// the core's events; gauges are read from the store when Prometheus scrapes (collect callbacks).
// prom-client is loaded here, on first use by the server: CLI commands never pay for its import.
// An event adds to a plain number (tally.ts); the counts reach prom-client's metrics when
// Prometheus scrapes: prom-client hashes the label set on every inc and observe, which was 4 % of
// a native create's CPU time.
import type * as Prom from "prom-client";
import type { Gateway } from "../../core/gateway.ts";
import type { AttemptResult, GatewayMetrics } from "../../core/metrics.ts";
import type { Order } from "../../core/types.ts";
import { familyLabel, outcomeLabel, payTypeLabel, reportKindLabel, routeFamily } from "./labels.ts";
import { addObservations, HistogramTally, Tallies, type Tally } from "./tally.ts";

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const WRITE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** One store read shared by the gauges of one scrape (their collect callbacks run together). */
function perScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = performance.now();
    if (!last || now - last.at > 250) last = { at: now, value: read() };
    return last.value;
  };
}

export class PromMetrics implements GatewayMetrics {
  readonly registry: Prom.Registry;
  private readonly created: Prom.Counter<"family" | "pay_type">;
  private readonly failed: Prom.Counter<"family" | "pay_type">;
  private readonly paid: Prom.Counter<"family" | "pay_type">;
  private readonly paidCents: Prom.Counter<"pay_type">;
  private readonly expired: Prom.Counter<"family" | "pay_type">;
  private readonly reports: Prom.Counter<"kind" | "outcome">;
  private readonly unrecognised: Prom.Counter;
  private readonly attempts: Prom.Counter<"result">;
  private readonly http: Prom.Histogram<"route">;
  /** Label children, looked up once: a create pays for one Map read and an addition. */
  private readonly children = new Map<string, Tally>();
  /** What the events counted since the last scrape, per label child. */
  private readonly tallies = new Tallies();
  /** HTTP durations per route family since the last scrape. */
  private readonly httpTallies = new Map<string, HistogramTally>();

  constructor(gw: Gateway) {
    const prom = require("prom-client") as typeof Prom;
    const registers = [(this.registry = new prom.Registry())];
    const tallies = this.tallies;
    // Every counter's collect hands over every counter's tallies: one scrape runs them all.
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new prom.Counter<L>({ name, help, labelNames, registers, collect: () => tallies.flush() });
    const orders = ["family", "pay_type"] as ("family" | "pay_type")[];
    this.created = counter("xpay_orders_created_total", "Orders created (pending), by wire family and pay type.", orders);
    this.failed = counter("xpay_orders_failed_total", "Orders whose creation failed (status 5: no account, no free amount), by family and pay type.", orders);
    this.paid = counter("xpay_orders_paid_total", "Orders paid, by family and pay type.", orders);
    this.paidCents = counter("xpay_paid_amount_cents_total", "Money received on paid orders: the sum of their trade_amount, in cents (divide by 100 for yuan).", ["pay_type"]);
    this.expired = counter("xpay_orders_expired_total", "Pending orders the expiry sweep marked timed out, by family and pay type.", orders);
    this.reports = counter("xpay_reports_total", "Reports stored by the report API, V免签 and simulate-pay, by kind and outcome.", ["kind", "outcome"]);
    this.unrecognised = counter("xpay_unrecognised_messages_total", "Payment-app notifications that mention an amount but no rule recognised (see xpay rules unparsed).", []);
    this.attempts = counter("xpay_notification_attempts_total", "Merchant notification attempts: delivered, retry (failed, another attempt is scheduled) or failed (given up).", ["result"]);
    const httpTallies = this.httpTallies;
    this.http = new prom.Histogram({
      name: "xpay_http_request_duration_seconds", help: "HTTP request duration by route family (never the path).", labelNames: ["route"], buckets: HTTP_BUCKETS, registers,
      collect() {
        for (const [route, t] of httpTallies) addObservations(this, { route }, t);
      },
    });
    const writes = new prom.Histogram({ name: "xpay_store_write_seconds", help: "Duration of the store's write transactions: on SQLite each group commit (order creates, reports, heartbeats and notification attempts of one event-loop turn), on PostgreSQL each create, pay and report unit and each batch of notification attempts.", buckets: WRITE_BUCKETS, registers });
    gw.store.stats.observeWrites((s) => {
      if (gw.metrics === this) writes.observe(s); // not while counting is off (metrics_enabled 0)
    });

    const outbox = perScrape(() => gw.store.stats.outbox(Date.now()));
    const gauge = (name: string, help: string, read: () => Promise<number>) =>
      new prom.Gauge({ name, help, registers, async collect() { this.set(await read()); } });
    gauge("xpay_outbox_pending", "Merchant notifications not delivered yet (due now or waiting for a retry).", async () => (await outbox()).pending);
    gauge("xpay_outbox_due", "Merchant notifications due now.", async () => (await outbox()).due);
    gauge("xpay_outbox_oldest_due_age_seconds", "How long the oldest due notification has been due (0 when none is).", async () => {
      const o = await outbox();
      return o.oldestDueMs === null ? 0 : Math.max(0, (Date.now() - o.oldestDueMs) / 1000);
    });
    gauge("xpay_monitor_clients_online", "Monitoring clients (phones, watchers, V免签 apps) seen within heartbeat_timeout.", async () =>
      gw.store.stats.clientsOnline(gw.clock.now() - (await gw.settings()).int("heartbeat_timeout")));
    const probe = perScrape(async () => {
      const t = performance.now();
      try {
        await gw.store.probeWrite();
        return { ok: 1, seconds: (performance.now() - t) / 1000 };
      } catch {
        return { ok: 0, seconds: (performance.now() - t) / 1000 };
      }
    });
    gauge("xpay_db_writable", "1 when the database took the scrape's write probe (the one /healthz makes), 0 when it refused it.", async () => (await probe()).ok);
    gauge("xpay_db_write_probe_seconds", "Duration of the scrape's write probe (one small committed write).", async () => (await probe()).seconds);
  }

  private child(key: string, make: () => { inc(n?: number): void }): Tally {
    let c = this.children.get(key);
    if (!c) this.children.set(key, (c = this.tallies.of(make())));
    return c;
  }

  /** Per counter, family and pay type as the order has them: no label object or key text per event. */
  private readonly orderChildren = new Map<Prom.Counter<"family" | "pay_type">, Map<string, Map<string, Tally>>>();

  private orderEvent(counter: Prom.Counter<"family" | "pay_type">, family: string, payType: string, n = 1) {
    let byFamily = this.orderChildren.get(counter);
    if (!byFamily) this.orderChildren.set(counter, (byFamily = new Map()));
    let byType = byFamily.get(family);
    if (!byType) byFamily.set(family, (byType = new Map()));
    let c = byType.get(payType);
    // Only the labels are bounded, not the raw pay types a merchant can send: past 64 raw values
    // the map is not grown (the lookup is then made each time, still onto an "other" label).
    if (!c) {
      const labels = { family: familyLabel(family), pay_type: payTypeLabel(payType) };
      // Keyed by the label values: the raw pay types past 64 share their "other" tally.
      const name = (counter as unknown as { name: string }).name;
      c = this.child(`${name}\n${labels.family}\n${labels.pay_type}`, () => counter.labels(labels));
      if (byType.size < 64) byType.set(payType, c);
    }
    c.n += n;
  }

  orderCreated(o: Order): void {
    if (o.status === 5) this.orderEvent(this.failed, o.family, o.payType);
    else this.orderEvent(this.created, o.family, o.payType);
  }

  orderPaid(o: Order): void {
    this.orderEvent(this.paid, o.family, o.payType);
    const pay_type = payTypeLabel(o.payType);
    this.child(`cents\n${pay_type}`, () => this.paidCents.labels({ pay_type })).n += o.tradeAmount ?? 0;
  }

  ordersExpired(family: string, payType: string, count: number): void {
    this.orderEvent(this.expired, family, payType, count);
  }

  report(kind: string, outcome: string): void {
    const labels = { kind: reportKindLabel(kind), outcome: outcomeLabel(outcome) };
    this.child(`report\n${labels.kind}\n${labels.outcome}`, () => this.reports.labels(labels)).n++;
  }

  unrecognisedMessage(): void {
    this.child("unrecognised", () => this.unrecognised).n++;
  }

  notificationAttempt(result: AttemptResult): void {
    this.child(`attempt\n${result}`, () => this.attempts.labels({ result })).n++;
  }

  httpRequest(path: string, seconds: number): void {
    const route = routeFamily(path);
    let t = this.httpTallies.get(route);
    if (!t) this.httpTallies.set(route, (t = new HistogramTally(HTTP_BUCKETS)));
    t.observe(seconds);
  }
}

const registries = new WeakMap<Gateway, PromMetrics>();

/** This gateway's registry, made on first use (one per gateway, whatever the number of apps). */
export function metricsOf(gw: Gateway): PromMetrics {
  let m = registries.get(gw);
  if (!m) registries.set(gw, (m = new PromMetrics(gw)));
  return m;
}

/** Counting on: the core's events go to this gateway's registry. */
export function installMetrics(gw: Gateway): PromMetrics {
  const m = metricsOf(gw);
  gw.metrics = m;
  return m;
}
