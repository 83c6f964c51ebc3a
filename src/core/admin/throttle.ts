// Login attempts per client address and per user name: token buckets of `capacity` attempts that
// refill evenly over `windowSec`. The core's TokenBuckets holds one minute's worth and cannot say
// how long to wait; a login needs "5 per 15 minutes" and "try again in N seconds", hence this one.
// A token is taken before the password is checked (so a burst of parallel guesses cannot all pass
// the check before the first failure counts) and given back when the login succeeds.

const MAX_KEYS = 100_000;

export interface Limit {
  capacity: number;
  windowSec: number;
}

/** 10 attempts a minute from one address; 5 per 15 minutes on one user name. */
export const LOGIN_LIMITS = { ip: { capacity: 10, windowSec: 60 }, user: { capacity: 5, windowSec: 900 } } satisfies Record<string, Limit>;

interface Bucket {
  tokens: number;
  at: number;
}

export class AttemptBuckets {
  private readonly buckets = new Map<string, Bucket>();

  private bucket(key: string, l: Limit, nowMs: number): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= MAX_KEYS) this.buckets.clear();
      b = { tokens: l.capacity, at: nowMs };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(l.capacity, b.tokens + (Math.max(0, nowMs - b.at) * l.capacity) / (l.windowSec * 1000));
    b.at = nowMs;
    return b;
  }

  /** 0 when an attempt may go ahead (a token is taken), else the whole seconds until one may. */
  take(key: string, l: Limit, nowMs: number): number {
    const b = this.bucket(key, l, nowMs);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - b.tokens) * l.windowSec) / l.capacity));
  }

  /** Returns a token taken by `take` (the attempt succeeded, or another bucket refused it). */
  give(key: string, l: Limit): void {
    const b = this.buckets.get(key);
    if (b) b.tokens = Math.min(l.capacity, b.tokens + 1);
  }
}

/** The console's login throttle: one bucket set per address, one per (case-folded) user name. */
export class LoginThrottle {
  private readonly ips = new AttemptBuckets();
  private readonly users = new AttemptBuckets();

  constructor(private readonly limits = LOGIN_LIMITS) {}

  /** 0: go ahead (tokens taken from both); else seconds to wait (nothing taken). */
  take(ip: string, user: string, nowMs: number): number {
    const byIp = this.ips.take(ip || "unknown", this.limits.ip, nowMs);
    if (byIp > 0) return byIp;
    const byUser = this.users.take(user.toLowerCase(), this.limits.user, nowMs);
    if (byUser > 0) this.ips.give(ip || "unknown", this.limits.ip);
    return byUser;
  }

  /** A successful login costs nothing. */
  give(ip: string, user: string): void {
    this.ips.give(ip || "unknown", this.limits.ip);
    this.users.give(user.toLowerCase(), this.limits.user);
  }
}
