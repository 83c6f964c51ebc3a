// Delivery of the alert outbox: like merchant notifications, each row (one message for one
// channel) is leased, sent, and its attempt recorded with the next try; it survives restarts and
// a crash mid-send (the lease runs out and the row goes again). Each channel has its own rows and
// at most PER_CHANNEL attempts in flight, so a channel that is down or hangs delays only itself.
import type { Gateway } from "../gateway.ts";
import { ALERT_TIMEOUT_MS, sendThrough, type SendOptions } from "./channels/send.ts";
import type { AlertAttempt, AlertChannel, ClaimedAlert } from "./store.ts";

/** Waits after each failed attempt (about 8 h in all), then the message is marked failed. */
export const ALERT_RETRY_S = [10, 30, 60, 300, 900, 1800, 3600, 7200, 14400] as const;
export const ALERT_MAX_ATTEMPTS = ALERT_RETRY_S.length + 1;
/** Longer than an attempt can take (the e-mail dialogue is bounded at twice the timeout). */
export const ALERT_LEASE_MS = 4 * ALERT_TIMEOUT_MS;
export const PER_CHANNEL = 2;

export function nextAlertRetry(attemptsMade: number, nowMs: number): number | null {
  const delay = ALERT_RETRY_S[attemptsMade - 1];
  return delay === undefined ? null : nowMs + delay * 1000;
}

export type DeliverOptions = Omit<SendOptions, "nowMs">;

/** Sends one leased row and records the attempt; never throws for a channel's failure. */
export async function deliverAlert(gw: Gateway, row: ClaimedAlert, channel: AlertChannel | undefined, o: DeliverOptions = {}): Promise<AlertAttempt> {
  const nowMs = gw.clock.nowMs();
  const attempt: AlertAttempt = channel
    ? await sendThrough(channel, row.message, { ...o, nowMs })
    : { attemptedAt: nowMs, durationMs: 0, httpStatus: null, answer: "", error: "channel removed", ok: false };
  const retry = attempt.ok || !channel ? null : nextAlertRetry(row.attempts + 1, gw.clock.nowMs());
  const status = attempt.ok ? "sent" : retry === null ? "failed" : "pending";
  await gw.store.alerts.recordAttempt(row.id, { attempt, status, nextAttemptAt: retry ?? gw.clock.nowMs() });
  // The log names the channel and the outcome; the config (tokens, keys) never reaches it.
  const fields = { id: row.id, channel: row.channelName, type: row.channelType, event: row.message.event, key: row.message.key, attempt: row.attempts + 1, status, http: attempt.httpStatus, error: attempt.error };
  if (attempt.ok) gw.log.event("alert.sent", fields);
  else gw.log.error("alert.failed", fields);
  return attempt;
}

/** One pass: every due row, awaited (tests, and `alert test` through the CLI). */
export async function deliverAlerts(gw: Gateway, o: DeliverOptions & { limit?: number } = {}): Promise<{ attempted: number; sent: number }> {
  const rows = await gw.store.alerts.claimDue(gw.clock.nowMs(), o.limit ?? 100, ALERT_LEASE_MS);
  const channels = new Map((await gw.store.alerts.listChannels()).map((c) => [c.id, c]));
  const done = await Promise.all(rows.map((r) => deliverAlert(gw, r, channels.get(r.channelId), o)));
  return { attempted: done.length, sent: done.filter((a) => a.ok).length };
}
