// Per-IP token bucket on the public cashier routes (/pay/*, /api/order/*, /qrcode): the payer's
// browser polls a few times a minute, a scraper hammering trade numbers is answered 429 in the
// template API's shape. `public_rate_limit` requests per minute per IP; 0 turns it off.
import type { Gateway } from "../core/gateway.ts";
import { json, peerIp } from "../protocols/http.ts";

const MAX_BUCKETS = 100_000;

interface Bucket { tokens: number; at: number }

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  /** Takes one token for `key`; false when the bucket is empty. Capacity = one minute's worth. */
  take(key: string, perMinute: number, nowMs: number): boolean {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear(); // bounded memory under a flood of addresses
      b = { tokens: perMinute, at: nowMs };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(perMinute, b.tokens + ((nowMs - b.at) * perMinute) / 60_000);
    b.at = nowMs;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

/**
 * The before-handle hook of the public routes. It is mounted on those routes only, not as a
 * global onRequest hook: a global hook runs, and is awaited, on every merchant API request too
 * (about 6% of a create's CPU time).
 */
export function publicRateLimit(gw: Gateway) {
  const buckets = new TokenBuckets();
  return async ({ request, server }: { request: Request; server: Parameters<typeof peerIp>[1] }) => {
    const limit = (await gw.settings()).int("public_rate_limit");
    if (limit <= 0) return;
    if (buckets.take(peerIp(request, server, gw.trustProxy) || "unknown", limit, Date.now())) return;
    const res = json({ code: 429, message: "too many requests, slow down", data: null }, 429);
    res.headers.set("retry-after", String(Math.max(1, Math.ceil(60 / limit))));
    return res;
  };
}
