// Per-IP token bucket on the public cashier routes (/pay/*, /api/order/*, /qrcode): the payer's
// browser polls a few times a minute, a scraper hammering trade numbers is answered 429 in the
// template API's shape. `public_rate_limit` requests per minute per IP; 0 turns it off.
import type { Gateway } from "../core/gateway.ts";
import { TokenBuckets } from "../core/token-bucket.ts";
import { json, peerIp } from "../protocols/http.ts";

export { TokenBuckets };

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
    if (buckets.take(peerIp(request, server, gw.proxyHops) || "unknown", limit, Date.now())) return;
    const res = json({ code: 429, message: "too many requests, slow down", data: null }, 429);
    res.headers.set("retry-after", String(Math.max(1, Math.ceil(60 / limit))));
    return res;
  };
}
