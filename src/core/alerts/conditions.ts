// The state conditions: pure functions of the facts one pass read. Each returns the instances that
// hold now; an instance that held before and is missing now has cleared (plan.ts resolves it).
// Event conditions (a report, a given-up notification) are in events.ts.
import { targetKey } from "../notify/fairness.ts";
import { boundPid } from "../report-bounds.ts";
import type { Thresholds } from "./settings.ts";
import type { AlertFacts } from "./store.ts";
import type { Condition, Finding } from "./types.ts";
import { span } from "./render.ts";

export interface StateResult {
  findings: Finding[];
  /** Conditions evaluated in this pass: their instances missing from `findings` have cleared. */
  evaluated: Condition[];
  /** Conditions turned off: their open instances are closed without a message. */
  off: Condition[];
}

/** A client silent for longer than the threshold (never less than heartbeat_timeout: it still counts as online). */
export function clientSilent(f: AlertFacts, t: Thresholds, now: number): Finding[] {
  const after = Math.max(t.clientSilent, t.heartbeatTimeout);
  // A V免签 client that never sent a heartbeat has not started yet: nothing has gone silent.
  return f.clients
    .filter((c) => c.lastSeenAt > 0 && now - c.lastSeenAt > after)
    .map((c) => ({
      key: `client_silent:client:${c.id}`,
      condition: "client_silent",
      title: `Monitoring client "${c.name}" (${c.kind}${c.pid ? `, merchant ${c.pid}` : ""}) is silent`,
      detail: `No report or heartbeat for ${span(now - c.lastSeenAt)} (alert after ${span(after)}). Payments it would report are not being seen: check the phone (battery saver, notification access, network).`,
      since: c.lastSeenAt,
      refs: { clientId: c.id, ...(c.pid ? { pid: c.pid } : {}) },
      command: "xpay client list",
    }));
}

/** An account holding pending orders while no client that watches it is online. */
export function accountOffline(f: AlertFacts, t: Thresholds, now: number): Finding[] {
  return f.pendingAccounts
    .filter((a) => now - a.lastSeenAt > t.heartbeatTimeout && now - a.oldestAt >= t.accountOffline)
    .map((a) => ({
      key: `account_offline:account:${a.id}`,
      condition: "account_offline",
      title: `Account ${a.id} "${a.name}" (${a.payType}) has ${a.pending} pending order(s) and no monitoring client online`,
      detail: `${a.lastSeenAt > 0 ? `Its client was last seen ${span(now - a.lastSeenAt)} ago` : "No client has ever reported for it"}; payments into it will not be seen. Oldest pending order ${a.tradeNo}.`,
      since: a.oldestAt,
      refs: { accountId: a.id, tradeNo: a.tradeNo, ...(a.pid ? { pid: a.pid } : {}) },
      command: `xpay client list; xpay order inspect ${a.tradeNo}`,
    }));
}

/** A notification still being retried after N failed attempts in a row. */
export function notifyFailing(f: AlertFacts, t: Thresholds): Finding[] {
  return f.failingNotifications
    .filter((n) => n.attempts >= t.notifyFailures)
    .map((n) => ({
      key: `notify_failing:notification:${n.id}`,
      condition: "notify_failing",
      title: `Notification of order ${n.tradeNo} (merchant ${n.pid}) failed ${n.attempts} times in a row`,
      detail: `Target ${targetKey(n.url)}; last answer: ${n.lastStatus !== null ? `HTTP ${n.lastStatus} ` : ""}${n.lastError || "(none)"}. It keeps being retried.`,
      since: n.createdAt,
      refs: { pid: n.pid, tradeNo: n.tradeNo },
      command: `xpay notify show ${n.tradeNo}`,
    }));
}

/** A merchant whose notifications have failed for M minutes, with no delivery to it in that time. */
export function merchantFailing(f: AlertFacts, t: Thresholds, now: number): Finding[] {
  const delivered = new Set(f.deliveredPids);
  return f.failingMerchants
    .filter((m) => now - m.since >= t.merchantFailingMin * 60 && !delivered.has(m.pid))
    .map((m) => ({
      key: `merchant_failing:merchant:${m.pid}`,
      condition: "merchant_failing",
      title: `Merchant ${m.pid}: notifications failing for ${span(now - m.since)}`,
      detail: `${m.failing} notification(s) pending after failed attempts and none delivered to this merchant in the last ${t.merchantFailingMin} min: its notify endpoint is probably down.`,
      since: m.since,
      refs: { pid: m.pid, tradeNo: m.tradeNo },
      command: `xpay notify list --status pending; xpay notify show ${m.tradeNo}`,
    }));
}

/** Orders of one merchant failing at creation (status 5) at or above the rate. */
export function createFailures(f: AlertFacts, t: Thresholds): Finding[] {
  const byPid = new Map<number, { count: number; since: number; tradeNo: string; reasons: Map<string, number> }>();
  for (const r of f.createFailures) {
    const m = byPid.get(r.pid) ?? { count: 0, since: r.since, tradeNo: r.tradeNo, reasons: new Map() };
    m.count += r.count;
    m.since = Math.min(m.since, r.since);
    m.reasons.set(r.reason, (m.reasons.get(r.reason) ?? 0) + r.count);
    byPid.set(r.pid, m);
  }
  return [...byPid].filter(([, m]) => m.count >= t.createFailures).map(([pid, m]) => {
    const reasons = [...m.reasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} x ${reason || "(no reason)"}`);
    return {
      key: `create_failures:merchant:${pid}`,
      condition: "create_failures" as const,
      title: `Merchant ${pid}: ${m.count} orders failed at creation in the last ${span(t.createWindow)}`,
      detail: `Reasons: ${reasons.slice(0, 3).join("; ")}. Payers get no payable amount: add or enable accounts, raise limits, or widen max_offset.`,
      since: m.since,
      refs: { pid, tradeNo: m.tradeNo },
      command: `xpay order list --pid ${pid} --status failed; xpay channel list`,
    };
  });
}

/**
 * Payment senders' notifications that no rule recognised, per merchant, seen within the last hour:
 * distinct notifications (a phone's re-send is the same one), exactly the rows `xpay rules
 * unparsed --pid P --from-sender` lists (f.unrecognised: core/rules/unparsed.ts fromSenders).
 */
export function unparsedMessages(f: AlertFacts, t: Thresholds): Finding[] {
  const byPid = new Map<number, { count: number; since: number }>();
  for (const m of f.unrecognised) {
    const p = byPid.get(m.pid) ?? { count: 0, since: m.firstSeen };
    p.count++;
    p.since = Math.min(p.since, m.firstSeen);
    byPid.set(m.pid, p);
  }
  return [...byPid].filter(([, p]) => p.count >= t.unparsed).map(([pid, p]) => ({
    key: `unparsed_messages:merchant:${pid}`,
    condition: "unparsed_messages" as const,
    title: `Merchant ${pid}: ${p.count} payment notifications in the last hour matched no rule`,
    detail: "They came from the payment app's own sender: it may have changed its wording, and payments in that wording are not being recognised. Read them and write a rule (xpay rules test, then xpay rules add).",
    since: p.since,
    refs: { pid },
    command: `xpay rules unparsed --pid ${pid} --from-sender`,
  }));
}

/**
 * A signer at today's bound of unmatched reports: the ones it sends now are counted, not stored
 * (core/report-bounds.ts). A phone gone wrong, or a client secret in the wrong hands; it resolves
 * when the day ends and a new count starts.
 */
export function reportBound(f: AlertFacts, t: Thresholds): Finding[] {
  return f.atBound.map((b) => {
    const [who, what] = [b.key.slice(0, b.key.lastIndexOf(":")), b.key.slice(b.key.lastIndexOf(":") + 1)];
    const pid = boundPid(b.key);
    return {
      key: `report_bound:${b.key}`,
      condition: "report_bound" as const,
      title: `${who}: ${b.stored} unmatched ${what === "message" ? "messages" : "payment reports"} today, the daily bound; further ones are counted, not stored`,
      detail: `${b.dropped} more counted, not stored so far (report_unmatched_daily ${t.reportBound}). A phone reporting in a loop, or its secret in someone else's hands: look at what it sent, and rotate its secret if it is not yours.`,
      since: b.day,
      refs: pid !== null ? { pid } : {},
      command: `xpay report bounds; xpay report list${pid !== null ? ` --pid ${pid}` : ""} --outcome unmatched`,
    };
  });
}

/** Every state condition that is on, over one pass's facts. */
export function stateFindings(f: AlertFacts, t: Thresholds, now: number): StateResult {
  // null: a list that is never cut (the unrecognised notifications are at most 500 rows in all).
  type List = AlertFacts["truncated"][number] | null;
  const all: [Condition, boolean, List, () => Finding[]][] = [
    ["client_silent", t.clientSilent > 0, "clients", () => clientSilent(f, t, now)],
    ["account_offline", t.accountOffline > 0, "pendingAccounts", () => accountOffline(f, t, now)],
    ["notify_failing", t.notifyFailures > 0, "failingNotifications", () => notifyFailing(f, t)],
    ["merchant_failing", t.merchantFailingMin > 0, "failingMerchants", () => merchantFailing(f, t, now)],
    ["create_failures", t.createFailures > 0, "createFailures", () => createFailures(f, t)],
    ["unparsed_messages", t.unparsed > 0, null, () => unparsedMessages(f, t)],
    ["report_bound", t.reportBound > 0, null, () => reportBound(f, t)],
  ];
  const on = all.filter(([, enabled]) => enabled);
  // A list cut at its limit still shows what fires, but not what cleared: nothing of it resolves.
  const whole = on.filter(([, , list]) => list === null || !f.truncated.includes(list));
  return { findings: on.flatMap(([, , , run]) => run()), evaluated: whole.map(([c]) => c), off: all.filter(([, e]) => !e).map(([c]) => c) };
}
