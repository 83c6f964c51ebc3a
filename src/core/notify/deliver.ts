// One delivery attempt of one outbox row: sign at send time with the family's signer (V2 needs a
// fresh timestamp each time), send without following redirects under the family's timeout,
// check the family's acknowledgement, and record the attempt with the next retry time.
import { withQuery } from "../families.ts";
import type { Gateway } from "../gateway.ts";
import { readCapped } from "../read-capped.ts";
import type { AttemptOutcome, Notification } from "../store.ts";
import { firstBytes, nextRetryAt } from "./schedule.ts";
import { blockPrivateOn, type Lookup, pinTarget } from "./target.ts";

export interface DeliveryOptions {
  /** Tests inject a fetch; the default is the global one. */
  fetch?: typeof fetch;
  /** Caps the family's timeout (tests); never raises it. */
  maxTimeoutMs?: number;
  /** Tests inject a resolver; the default is the gateway's (gw.lookup: the system's getaddrinfo). */
  lookup?: Lookup;
  /** Seconds between attempts (default RETRY_DELAYS_S); `xpay dev` compresses them. */
  retryDelaysS?: readonly number[];
}

interface Sent {
  pid?: number;
  httpStatus: number | null;
  body: string;
  error: string;
  acknowledged: boolean;
}

async function send(gw: Gateway, n: Notification, o: DeliveryOptions): Promise<Sent> {
  const notifier = gw.families.has(n.family) ? gw.families.get(n.family) : null;
  // The row keeps its merchant (migration 037): the order is read only for a row without it, or for
  // a family that signs with the order's own key (V免签).
  const order = n.pid === undefined || notifier?.signingKey ? await gw.store.getOrder(n.tradeNo) : null;
  const merchantPid = n.pid ?? order?.pid;
  const merchant = merchantPid === undefined || (notifier?.signingKey && !order) ? null : await gw.store.getMerchant(merchantPid);
  if (!merchant) return { httpStatus: null, body: "", error: "order or merchant no longer exists", acknowledged: false };
  const pid = merchant.pid;
  if (!notifier) return { pid, httpStatus: null, body: "", error: `no notifier registered for family ${n.family}`, acknowledged: false };
  // Resolved and checked once; the request goes to that address (no second lookup by fetch).
  const pinned = await pinTarget(n.url, await blockPrivateOn(gw), o.lookup ?? gw.lookup);
  if ("problem" in pinned) return { pid, httpStatus: null, body: "", error: pinned.problem, acknowledged: false };
  const target = pinned.target;
  const key = notifier.signingKey && order ? await notifier.signingKey(order) : undefined;
  if (key === null) return { pid, httpStatus: null, body: "", error: "the key that signs this order's notifications no longer exists", acknowledged: false };
  const signed = notifier.sign(n.params, { merchant, platformPrivateKey: await gw.platformPrivateKey(), now: gw.clock.now(), key });
  const timeoutMs = Math.min(notifier.timeoutMs, o.maxTimeoutMs ?? Infinity);
  // Bun's fetch keeps a Host header it is given and verifies the certificate against tls.serverName.
  const headers: Record<string, string> = { "user-agent": "xpay-notify/1", host: target.host };
  const init: RequestInit & { tls?: { serverName: string } } = { method: n.method, redirect: "manual", signal: AbortSignal.timeout(timeoutMs), headers };
  if (target.serverName) init.tls = { serverName: target.serverName };
  let url = target.url;
  if (n.method === "GET") url = withQuery(target.url, signed);
  else {
    init.body = new URLSearchParams(signed).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  try {
    const res = await (o.fetch ?? fetch)(url, init);
    const bytes = await readCapped(res);
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    const ok2xx = res.status >= 200 && res.status < 300;
    const acknowledged = ok2xx && notifier.isAcknowledged(text);
    let error = "";
    if (res.status >= 300 && res.status < 400) error = `redirect (HTTP ${res.status}) not followed`;
    else if (!ok2xx) error = `HTTP ${res.status}`;
    else if (!acknowledged) error = "response is not an acknowledgement";
    return { pid, httpStatus: res.status, body: firstBytes(bytes), error, acknowledged };
  } catch (e) {
    const name = e instanceof Error ? e.name : "";
    const error = name === "TimeoutError" || name === "AbortError" ? `timed out after ${timeoutMs} ms` : e instanceof Error ? e.message : String(e);
    return { pid, httpStatus: null, body: "", error: error.slice(0, 512), acknowledged: false };
  }
}

/**
 * Sends one claimed notification and stores the attempt; never throws for a merchant's failure.
 * `answered` runs once the merchant's answer is in (or the attempt failed), before the attempt is
 * stored: the worker gives the merchant's share back there, since the endpoint is no longer busy
 * with it; the row stays leased until the attempt is stored, so it cannot be sent twice.
 */
export async function deliverOne(gw: Gateway, n: Notification, o: DeliveryOptions = {}, answered?: () => void): Promise<AttemptOutcome> {
  const started = gw.clock.nowMs();
  const t0 = performance.now();
  const sent = await send(gw, n, o).catch((e): Sent => ({ httpStatus: null, body: "", error: e instanceof Error ? e.message : String(e), acknowledged: false }));
  answered?.();
  const durationMs = Math.round(performance.now() - t0);
  const now = gw.clock.nowMs();
  const retryAt = sent.acknowledged ? null : nextRetryAt(n.attempts + 1, now, o.retryDelaysS);
  const { pid, ...answer } = sent;
  const outcome: AttemptOutcome = {
    attempt: { attemptedAt: started, durationMs, ...answer },
    status: sent.acknowledged ? "delivered" : retryAt === null ? "failed" : "pending",
    nextAttemptAt: retryAt ?? now,
    ...(pid === undefined ? {} : { pid }),
  };
  await gw.store.recordNotificationAttempt(n.id, outcome);
  gw.metrics.notificationAttempt(outcome.status === "pending" ? "retry" : outcome.status);
  return outcome;
}

export interface PassOptions extends DeliveryOptions {
  limit?: number;
  /** Longer than any family's timeout, so a row is never sent twice while an attempt is in flight. */
  leaseMs?: number;
}

export const DEFAULT_LEASE_MS = 90_000;

/** One pass: claim what is due now and deliver it; `--deliver` and tests use this without a worker. */
export async function deliverDue(gw: Gateway, o: PassOptions = {}): Promise<{ attempted: number; delivered: number }> {
  const due = await gw.store.claimDueNotifications(gw.clock.nowMs(), o.limit ?? 50, o.leaseMs ?? DEFAULT_LEASE_MS);
  const outcomes = await Promise.all(due.map((n) => deliverOne(gw, n, o)));
  return { attempted: outcomes.length, delivered: outcomes.filter((x) => x.status === "delivered").length };
}
