// One monitoring client's page (issue 17 and issue 22's device history): the last reports it sent
// and how each was read, its online history over a range with the silences marked, how long it
// was online today, the latency of its reports, and its last messages no rule could read.
import { startOfLocalDay } from "../stats/calendar.ts";
import type { Gateway } from "../gateway.ts";
import { MESSAGE_RULES } from "../payment-formats.ts";
import { parseForwardedContent } from "../report-rules.ts";
import { operatorRules } from "../rules/operator-rules.ts";
import { looksLikePayment } from "../rules/unparsed.ts";
import type { MonitorClient, StoredReport } from "../store.ts";
import { type DeviceHistory, deviceHistory } from "./history.ts";
import { type Latency, reportLatency } from "./latency.ts";
import type { ClientReportQuery } from "./store.ts";

/** The reports each kind of client sends (heartbeats are its history, not listed). */
export const REPORT_KINDS: Record<MonitorClient["kind"], readonly string[]> = {
  phone: ["message", "amount"],
  report: ["message", "amount"],
  // Stored as message reports, in the spec's shape (protocols/report/smsforwarder.ts).
  smsforwarder: ["message"],
  "third-account": ["third-account"],
  vmq: ["vmq-push"],
};

/** Kinds whose messages are forwarded notifications (the unread list reads them). */
const FORWARDS = new Set<MonitorClient["kind"]>(["phone", "report", "smsforwarder"]);

/** History ranges the page offers, in days. */
export const HISTORY_DAYS = [1, 7, 30] as const;
/** Intervals read for one range at most: a client that drops out every minute shows its newest ones. */
export const INTERVALS_MAX = 5000;
export const REPORTS_SHOWN = 20;
const LATENCY_SAMPLE = 100;
const UNREAD_SHOWN = 10;

export function reportQuery(c: MonitorClient, o: Partial<ClientReportQuery> = {}): ClientReportQuery {
  return { pid: c.kind === "third-account" ? null : c.pid, name: c.name, kinds: REPORT_KINDS[c.kind], limit: REPORTS_SHOWN, ...o };
}

/** A message no rule read, with the forwarded fields the operator writes a rule from. */
export interface UnreadMessage {
  report: StoredReport;
  pkg: string;
  title: string;
  text: string;
  /** From a payment app and mentions an amount: kept for `xpay rules unparsed` too. */
  looksLikePayment: boolean;
}

function unreadOf(r: StoredReport, packages: Set<string>): UnreadMessage {
  let content = "";
  try {
    const raw = JSON.parse(r.raw) as { content?: unknown };
    if (typeof raw.content === "string") content = raw.content;
  } catch {
    // stored raw is always JSON; a clipped one just shows no fields
  }
  const m = parseForwardedContent(content);
  const msg = m.ok ? m.message : {};
  return { report: r, pkg: msg.package_name ?? "", title: msg.title ?? "", text: msg.msg ?? "", looksLikePayment: m.ok && looksLikePayment(msg, packages) };
}

export interface ClientDetail {
  history: DeviceHistory;
  today: DeviceHistory;
  reports: StoredReport[];
  latency: Latency;
  unread: UnreadMessage[];
}

/** `days`: the history range (one of HISTORY_DAYS), ending now. */
export async function clientDetail(gw: Gateway, c: MonitorClient, o: { days: number; timeout: number; tz: string }): Promise<ClientDetail> {
  const now = gw.clock.now();
  const from = now - o.days * 86_400;
  const dayStart = startOfLocalDay(now, o.tz);
  const since = Math.min(from, dayStart) - o.timeout;
  const [intervals, sample, unread, rules] = await Promise.all([
    gw.store.devices.onlineIntervals(c.id, since, INTERVALS_MAX),
    gw.store.devices.clientReports(reportQuery(c, { limit: LATENCY_SAMPLE })),
    FORWARDS.has(c.kind) ? gw.store.devices.clientReports(reportQuery(c, { kinds: ["message"], unread: true, limit: UNREAD_SHOWN })) : Promise.resolve([]),
    operatorRules(gw),
  ]);
  const packages = new Set([...MESSAGE_RULES.map((r) => r.pkg), ...rules.map((r) => r.pkg)]);
  return {
    history: deviceHistory(intervals, { from, to: now, timeout: o.timeout }),
    today: deviceHistory(intervals, { from: dayStart, to: now, timeout: o.timeout }),
    reports: sample.slice(0, REPORTS_SHOWN),
    latency: reportLatency(sample, o.tz),
    unread: unread.map((r) => unreadOf(r, packages)),
  };
}
