// The words of an alert. One plain text per message, made once when it is queued, so every channel
// says the same thing: what happened, since when, about which merchant/account/order, and the
// command that shows more. Times are in the operator's `timezone` setting with their offset.
import { formatLocal } from "../time.ts";
import type { AlertMessage, AlertRefs, Finding, MessageEvent } from "./types.ts";

/** "45 s", "5 min 10 s", "2 h 3 min", "3 d 4 h". */
export function span(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  if (s < 86400) return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ""}`;
  return `${Math.floor(s / 86400)} d${Math.floor((s % 86400) / 3600) ? ` ${Math.floor((s % 86400) / 3600)} h` : ""}`;
}

export function refsLine(r: AlertRefs): string {
  const parts = [
    r.pid !== undefined ? `merchant ${r.pid}` : "",
    r.accountId !== undefined ? `account ${r.accountId}` : "",
    r.tradeNo ? `order ${r.tradeNo}` : "",
    r.clientId !== undefined ? `client ${r.clientId}` : "",
    r.reportId !== undefined ? `report ${r.reportId}` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "";
}

/** What a resolved message says changed, by condition. */
const CLEARED: Record<string, string> = {
  client_silent: "The client reported again.",
  account_offline: "A monitoring client of the account is online again, or its pending orders ended.",
  notify_failing: "The notification is no longer being retried after failures: delivered, or given up (see the command).",
  merchant_failing: "A notification reached the merchant again, or none is failing any more.",
  create_failures: "Order creation failures are below the threshold again.",
  db_write: "The database accepts writes again.",
  unparsed_messages: "No more unrecognised payment notifications than the threshold in the last hour.",
  backup_failed: "A scheduled backup succeeded again.",
  report_bound: "A new day began: the signer's unmatched reports are stored again, up to the bound.",
};

export interface RenderContext {
  nowMs: number;
  timeZone: string;
}

const when = (seconds: number, c: RenderContext) => formatLocal(seconds * 1000, c.timeZone);

export function firingMessage(f: Finding, c: RenderContext, flaps = 0): AlertMessage {
  const lines = [
    `[xpay] ALERT ${f.condition}`,
    f.title,
    f.detail,
    `since: ${when(f.since, c)} (${span(c.nowMs / 1000 - f.since)} ago)`,
    refsLine(f.refs),
    flaps > 0 ? `(it cleared and came back ${flaps} time(s) while messages were held back by alert_throttle)` : "",
    `look closer: ${f.command}`,
  ];
  return message("firing", f, lines, c);
}

export function resolvedMessage(f: Finding, openedAt: number, c: RenderContext): AlertMessage {
  const lines = [
    `[xpay] RESOLVED ${f.condition}`,
    f.title,
    CLEARED[f.condition] ?? "The condition cleared.",
    `cleared: ${formatLocal(c.nowMs, c.timeZone)}, after ${span(c.nowMs / 1000 - Math.min(openedAt, f.since))}`,
    refsLine(f.refs),
    `look closer: ${f.command}`,
  ];
  return message("resolved", f, lines, c);
}

function message(event: MessageEvent, f: Finding, lines: string[], c: RenderContext): AlertMessage {
  const title = `${event === "resolved" ? "Resolved" : "Alert"}: ${f.title}`;
  return { event, condition: f.condition, key: f.key, title, text: lines.filter(Boolean).join("\n"), since: f.since, at: c.nowMs, refs: f.refs, command: f.command };
}

/** Many messages of one pass as one: a gateway with trouble everywhere must not flood the operator. */
export function summaryMessage(messages: AlertMessage[], c: RenderContext, show = 20): AlertMessage {
  const firing = messages.filter((m) => m.event === "firing").length;
  const title = `${messages.length} alerts (${firing} firing, ${messages.length - firing} resolved)`;
  const lines = messages.slice(0, show).map((m) => `- ${m.event === "resolved" ? "RESOLVED " : ""}${m.title.replace(/^(Alert|Resolved): /, "")}`);
  const more = messages.length > show ? [`... and ${messages.length - show} more`] : [];
  const text = [`[xpay] ${title}`, ...lines, ...more, `at: ${formatLocal(c.nowMs, c.timeZone)}`, "look closer: xpay alert history"].join("\n");
  const items = messages.map((m) => ({ event: m.event, condition: m.condition, key: m.key, title: m.title }));
  return { event: "summary", condition: "", key: "", title: `xpay: ${title}`, text, since: 0, at: c.nowMs, refs: {}, command: "xpay alert history", items };
}

/** What `xpay alert test` sends. */
export function testMessage(channelName: string, c: RenderContext): AlertMessage {
  const text = [`[xpay] TEST alert channel "${channelName}"`, "If you read this, xpay can reach you here.", `at: ${formatLocal(c.nowMs, c.timeZone)}`, "look closer: xpay alert history"].join("\n");
  return { event: "test", condition: "", key: "", title: `xpay: test of alert channel ${channelName}`, text, since: 0, at: c.nowMs, refs: {}, command: "xpay alert history" };
}
