// An order's history as one list, oldest first: created, account and payable amount allocated,
// every report that touched it, paid / closed / timed out, the notification queued and each
// attempt with what was sent and what the merchant answered, and what operators did to it. Pure:
// the caller reads the rows; a page or a CLI command renders the events.
import { effectiveStatus } from "../order-state.ts";
import { lateBy } from "./late.ts";
import type { Notification, NotificationAttempt, StoredReport } from "../store.ts";
import { type ChannelAccount, type Order, OrderStatus } from "../types.ts";

export type TimelineKind =
  | "created"
  | "allocated"
  | "creation_failed"
  | "report"
  | "paid"
  | "closed"
  | "timed_out"
  | "notify_queued"
  | "notify_attempt"
  /** Consecutive identical failed attempts folded into one (timeline-fold.ts). */
  | "notify_failures"
  | "operator";

export interface TimelineEvent {
  /** Milliseconds since the epoch (order and report times are stored in seconds). */
  atMs: number;
  kind: TimelineKind;
  /** Plain values for the renderer; never HTML. */
  detail: Record<string, string | number | boolean | null>;
  /** A fold (notify_failures): the events it stands for, oldest first. */
  folded?: TimelineEvent[];
}

/** What an operator did to the order (the audit log), already read by the caller. */
export interface OperatorEvent {
  atMs: number;
  actor: string;
  action: string;
  reason: string;
}

export interface TimelineInput {
  order: Order;
  account: ChannelAccount | null;
  reports: StoredReport[];
  notification: (Notification & { attempts_log: NotificationAttempt[] }) | null;
  operatorEvents?: OperatorEvent[];
  now: number;
}

function startEvents(o: Order, account: ChannelAccount | null): TimelineEvent[] {
  const at = o.createdAt * 1000;
  const events: TimelineEvent[] = [{ atMs: at, kind: "created", detail: { family: o.family, amount: o.amount, pay_type: o.payType, out_trade_no: o.outTradeNo } }];
  if (o.status === OrderStatus.Failed) events.push({ atMs: at, kind: "creation_failed", detail: { reason: o.failReason } });
  else if (o.tradeAmount !== null) {
    events.push({ atMs: at, kind: "allocated", detail: { account_id: o.accountId, account: account?.name ?? null, trade_amount: o.tradeAmount } });
  }
  return events;
}

/** After the reports of the same instant: the report that paid comes before "paid". */
function endEvents(o: Order, reports: readonly StoredReport[], now: number): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  if (o.paidAt !== null) events.push({ atMs: o.paidAt * 1000, kind: "paid", detail: { late: lateBy(o, reports) !== null, buyer: o.buyer, api_trade_no: o.apiTradeNo } });
  if (o.closedAt !== null) events.push({ atMs: o.closedAt * 1000, kind: "closed", detail: {} });
  if (effectiveStatus(o, now) === OrderStatus.TimedOut) events.push({ atMs: o.expireTime * 1000, kind: "timed_out", detail: {} });
  return events;
}

function notificationEvents(n: NonNullable<TimelineInput["notification"]>): TimelineEvent[] {
  const events: TimelineEvent[] = [{ atMs: n.createdAt, kind: "notify_queued", detail: { url: n.url, method: n.method, sent: JSON.stringify(n.params) } }];
  for (const a of n.attempts_log) {
    events.push({
      atMs: a.attemptedAt,
      kind: "notify_attempt",
      detail: { http_status: a.httpStatus, answer: a.body, error: a.error, acknowledged: a.acknowledged, duration_ms: a.durationMs },
    });
  }
  return events;
}

export function orderTimeline(i: TimelineInput): TimelineEvent[] {
  const events = startEvents(i.order, i.account);
  for (const r of i.reports) {
    events.push({ atMs: r.createdAt * 1000, kind: "report", detail: {
      id: r.id, report_kind: r.kind, client: r.client, outcome: r.outcome, reason: r.reason, amount: r.amount,
      ...(r.reasonCode ? { reason_code: r.reasonCode, reason_args: r.reasonArgs ?? "{}" } : {}),
    } });
  }
  events.push(...endEvents(i.order, i.reports, i.now));
  if (i.notification) events.push(...notificationEvents(i.notification));
  for (const e of i.operatorEvents ?? []) events.push({ atMs: e.atMs, kind: "operator", detail: { actor: e.actor, action: e.action, reason: e.reason } });
  // Stable: events of the same instant keep the order above (created, allocated, report, paid).
  return events.map((e, n) => ({ e, n })).sort((a, b) => a.e.atMs - b.e.atMs || a.n - b.n).map(({ e }) => e);
}
