// The console's login throttle. Attempts are counted in the store (login_failures, one counter per
// user name, browser, minute and address), so every instance on one database counts the same
// attempts and a restart forgets nothing; the same counters are the failed-login summary the
// operator reads (core/admin/login-failures.ts).
//
// Two kinds of browser, two sets of limits:
// - a stranger (a browser that never logged in as this user): 10 attempts a minute per address,
//   5 in 15 minutes per user name, from any address. This is the lockout a guesser meets;
// - a known browser (it holds the signed device cookie a past login as this user set, or a live
//   session of the user): only its own 10 in 15 minutes. A flood of wrong passwords on the name,
//   from anywhere, never locks the operator's own browsers out.
//
// An attempt is counted before its password is checked, so a burst of parallel guesses cannot all
// pass before the first failure counts: read the counts (refuse when full), add one, read again
// (refuse and take it back when a concurrent attempt, on this instance or another, got there
// first), and take it back when the password was right. Racing attempts may both be refused at
// the bound; more than the bound never pass.
import type { Gateway } from "../gateway.ts";
import type { LoginCounter, WindowCount } from "./store.ts";

/** Counters are per minute. */
export const WINDOW = 60;

export interface Limit {
  /** Attempts allowed within the span. */
  attempts: number;
  /** Minutes counted: the current one and the ones before it. */
  windows: number;
}

export const LOGIN_LIMITS = {
  ip: { attempts: 10, windows: 1 },
  user: { attempts: 5, windows: 15 },
  device: { attempts: 10, windows: 15 },
} satisfies Record<string, Limit>;

export const windowOf = (at: number): number => at - (((at % WINDOW) + WINDOW) % WINDOW);

/**
 * Seconds until fewer than `allowed` attempts lie within the limit's span (0: fewer already). The
 * oldest minutes leave the span first: the wait ends when the last one that must go has gone.
 */
export function waitFor(counts: readonly WindowCount[], l: Limit, allowed: number, now: number): number {
  const from = windowOf(now) - (l.windows - 1) * WINDOW;
  const inSpan = counts.filter((c) => c.window >= from).sort((a, b) => a.window - b.window);
  let total = inSpan.reduce((n, c) => n + c.failed, 0);
  if (total < allowed) return 0;
  for (const c of inSpan) {
    total -= c.failed;
    if (total < allowed) return Math.max(1, c.window + l.windows * WINDOW - now);
  }
  return Math.max(1, windowOf(now) + l.windows * WINDOW - now); // unreachable while allowed >= 1
}

export interface Who {
  /** The typed user name, cut and case folded. */
  user: string;
  ip: string;
  /** '' for a stranger; else the known browser's key. */
  device: string;
}

async function wait(gw: Gateway, who: Who, now: number, extra: number): Promise<number> {
  const w = await gw.store.admin.loginWindows({ ...who, since: windowOf(now) - (LOGIN_LIMITS.user.windows - 1) * WINDOW });
  if (who.device !== "") return waitFor(w.device, LOGIN_LIMITS.device, LOGIN_LIMITS.device.attempts + extra, now);
  return Math.max(waitFor(w.ip, LOGIN_LIMITS.ip, LOGIN_LIMITS.ip.attempts + extra, now), waitFor(w.user, LOGIN_LIMITS.user, LOGIN_LIMITS.user.attempts + extra, now));
}

export type Take = { wait: 0; key: LoginCounter } | { wait: number; key: null };

/** Counts an attempt and lets it go ahead (wait 0), or refuses it (seconds to wait; counted as refused). */
export async function takeAttempt(gw: Gateway, who: Who): Promise<Take> {
  const now = gw.clock.now();
  const key: LoginCounter = { ...who, window: windowOf(now) };
  const before = await wait(gw, who, now, 0);
  if (before > 0) {
    await gw.store.admin.countLogin(key, { failed: 0, refused: 1 }, now);
    return { wait: before, key: null };
  }
  await gw.store.admin.countLogin(key, { failed: 1, refused: 0 }, now);
  const after = await wait(gw, who, now, 1); // our own attempt is in the counts now
  if (after > 0) {
    await gw.store.admin.countLogin(key, { failed: -1, refused: 1 }, now);
    return { wait: after, key: null };
  }
  return { wait: 0, key };
}

/** The password was right: the attempt is no failure. */
export function attemptSucceeded(gw: Gateway, key: LoginCounter): Promise<void> {
  return gw.store.admin.countLogin(key, { failed: -1, refused: 0 }, gw.clock.now());
}

/** Turned away before any count was taken (the password queue was full): a refusal. */
export function attemptRefused(gw: Gateway, who: Who): Promise<void> {
  const now = gw.clock.now();
  return gw.store.admin.countLogin({ ...who, window: windowOf(now) }, { failed: 0, refused: 1 }, now);
}

/** Counted, then never checked (the queue filled meanwhile): a refusal, not a failure. */
export function attemptNotChecked(gw: Gateway, key: LoginCounter): Promise<void> {
  return gw.store.admin.countLogin(key, { failed: -1, refused: 1 }, gw.clock.now());
}
