// What every contract test gets: the store under test (a fresh, migrated, empty database per test),
// more instances on the same database (two `xpay serve` processes), and units built from the
// core's own rules, so each adapter is tested with exactly what the core hands it.
import { allocationRule, type AllocationPolicy, type AllocationRule } from "../../src/core/allocation.ts";
import { matchPayment, notPaidReason, type PaymentClaim } from "../../src/core/report-match.ts";
import type { CreateOrderUnit, ExistingDecision, OutboxEntry, PayUnit, ReportRecord, SettleReportUnit, Store } from "../../src/core/store.ts";
import type { NewOrder, Order } from "../../src/core/types.ts";

export interface StoreFactory {
  name: string;
  /** Once per suite (a PostgreSQL cluster); may be absent. */
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  /** A new empty database at the current schema; its first instance. */
  fresh(): Promise<Store>;
  /** One more instance on the database of the last `fresh` (another process, another machine). */
  another(): Promise<Store>;
  /** Closes every instance `fresh` and `another` made since. */
  release(): Promise<void>;
}

export interface Ctx {
  readonly store: Store;
  another(): Promise<Store>;
  readonly adapter: string;
}

/** Store times are explicit: seconds (orders, reports) and milliseconds (the outbox). */
export const T0 = 1_800_000_000;
export const DAY0 = T0 - (T0 % 86400);

export const POLICY: AllocationPolicy = { maxOffset: 10, maxOffsetPercent: 100, direction: "down", matchWindow: 600, requireOnline: false, heartbeatTimeout: 90 };

export async function merchant(store: Store, pid = 1001) {
  return store.addMerchant({ pid, name: `Shop ${pid}`, secret: `secret-${pid}`, now: T0 });
}

export async function account(store: Store, o: { pid?: number; payType?: string; code?: string; min?: number; max?: number; day?: number; sort?: number } = {}) {
  return store.addChannel({
    pid: o.pid ?? 0, payType: o.payType ?? "alipay", code: o.code ?? `qr${Math.random().toString(36).slice(2, 8)}`, name: "Account",
    qrcode: "https://qr.example/x", minAmount: o.min, maxAmount: o.max, dayAmount: o.day, sort: o.sort, now: T0,
  });
}

let serial = 0;
export function tradeNos(prefix = "2026"): () => string {
  return () => `${prefix}${String(++serial).padStart(20 - prefix.length, "0")}`;
}

export function newOrder(o: Partial<NewOrder> = {}): NewOrder {
  return {
    pid: 1001, outTradeNo: `M${++serial}`, family: "native", payType: "alipay", name: "VIP", amount: 1000, notifyUrl: "http://127.0.0.1:9/notify",
    returnUrl: "", param: "", clientip: "", device: "", extra: {}, ...o,
  };
}

/** The core's idempotency rule in short: failed rows retry, a different amount is an error, else return. */
export function onExisting(o: NewOrder) {
  return (existing: Order): ExistingDecision => {
    if (existing.status === 5) return { kind: "retry" };
    if (existing.amount !== o.amount) return { kind: "error", reason: `out_trade_no ${o.outTradeNo} already exists with a different amount` };
    return { kind: "return" };
  };
}

export function rule(o: NewOrder, now = T0, policy: Partial<AllocationPolicy> = {}): AllocationRule {
  return allocationRule({ pid: o.pid, payType: o.payType, amount: o.amount, now, dayStart: DAY0 }, { ...POLICY, ...policy });
}

export function createUnit(o: NewOrder, x: { now?: number; ttl?: number; policy?: Partial<AllocationPolicy>; newTradeNo?: () => string } = {}): CreateOrderUnit {
  const now = x.now ?? T0;
  return {
    order: o, newTradeNo: x.newTradeNo ?? tradeNos(), now, expireTime: now + (x.ttl ?? 900), onExisting: onExisting(o),
    allocate: o.payType === "" ? null : rule(o, now, x.policy),
  };
}

export async function create(store: Store, o: Partial<NewOrder> = {}, x: Parameters<typeof createUnit>[1] = {}): Promise<Order> {
  const r = await store.createOrder(createUnit(newOrder(o), x));
  if (r.kind === "error") throw new Error(r.reason);
  return r.order;
}

export function outboxOf(paid: Order): OutboxEntry | null {
  return paid.notifyUrl === "" ? null : { family: paid.family, url: paid.notifyUrl, method: "POST", params: { trade_no: paid.tradeNo, money: String(paid.amount) } };
}

export function payUnit(tradeNo: string, now = T0 + 10, window = POLICY.matchWindow): PayUnit {
  return { tradeNo, now, nowMs: now * 1000, acceptTimedOutSince: now - window, outbox: outboxOf };
}

export function claim(o: Partial<PaymentClaim> = {}): PaymentClaim {
  return { pid: 1001, amount: 1000, payType: "alipay", channelCode: "", accountId: null, subAccount: "", orderId: "", outOrderId: "", ...o };
}

export function report(o: Partial<ReportRecord> = {}): ReportRecord {
  return {
    kind: "amount", pid: 1001, client: "phone-1", raw: "{}", amount: 1000, payType: "alipay", channelCode: "", dedupeKey: null,
    outcome: "unmatched", reason: "", tradeNo: null, createdAt: T0 + 10, ...o,
  };
}

/** The report unit as core/settle-report.ts builds it, over the core's matcher. */
export function settleUnit(c: PaymentClaim, r: Partial<ReportRecord> = {}, now = T0 + 10): SettleReportUnit {
  return {
    report: report({ amount: c.amount, pid: c.pid, payType: c.payType, createdAt: now, ...r }),
    decide: (view) => matchPayment(c, view, now, POLICY.matchWindow),
    pay: (order) => payUnit(order.tradeNo, now),
    notPaid: notPaidReason,
  };
}
