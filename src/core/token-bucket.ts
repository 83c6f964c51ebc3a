// Per-key token buckets: the public-route rate limit and the failed-authentication throttle both
// count per client address with them. Memory stays bounded under a flood of distinct keys.
const MAX_BUCKETS = 100_000;

interface Bucket { tokens: number; at: number }

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  private refill(key: string, perMinute: number, nowMs: number): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
      b = { tokens: perMinute, at: nowMs };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(perMinute, b.tokens + ((Math.max(0, nowMs - b.at)) * perMinute) / 60_000);
    b.at = nowMs;
    return b;
  }

  /** Takes one token for `key`; false when the bucket is empty. Capacity = one minute's worth. */
  take(key: string, perMinute: number, nowMs: number): boolean {
    const b = this.refill(key, perMinute, nowMs);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** True when `key` has at least one token left; takes none. */
  has(key: string, perMinute: number, nowMs: number): boolean {
    if (!this.buckets.has(key)) return true;
    return this.refill(key, perMinute, nowMs).tokens >= 1;
  }
}
