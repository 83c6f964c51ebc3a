// Lookups that miss cost the caller. The template API is public: order_id is the key of qrcode and
// pay-type, and info answers by pid + out_order_id (the spec's second way, kept), so someone walking
// order numbers or a shop's out_trade_no sequence mostly misses. Each miss is logged and counted per
// client address; an address that used up `lookup_miss_limit` misses in a minute is answered 429 in
// the template shape, before any lookup, until its bucket refills. The payer's own page never
// misses (it polls the order it was sent to). Requests with no known address (in-process calls)
// are not counted, as for the failed-authentication throttle.
import type { Gateway } from "../../core/gateway.ts";
import { TokenBuckets } from "../../core/token-bucket.ts";
import { peerIp } from "../http.ts";

export const MISS_LIMITED = "查询不到的订单过多，请一分钟后再试";

export interface MissGate {
  /** The address has no misses left: answer 429 without looking the order up. */
  readonly blocked: boolean;
  /** Counts (and logs) one lookup that found no order. */
  missed(by: "order_id" | "out_order_id", id: string, pid?: number): void;
}

const buckets = new WeakMap<Gateway, TokenBuckets>();

function bucketsOf(gw: Gateway): TokenBuckets {
  let b = buckets.get(gw);
  if (!b) buckets.set(gw, (b = new TokenBuckets()));
  return b;
}

/** Seconds until one more lookup is allowed (the 429's Retry-After). */
export const retryAfter = (limit: number) => Math.max(1, Math.ceil(60 / Math.max(1, limit)));

export async function missGate(gw: Gateway, request: Request): Promise<MissGate> {
  const limit = (await gw.settings()).int("lookup_miss_limit");
  // The socket address was cached by serve's fetch wrapper before routing (socketIp).
  const source = peerIp(request, undefined, gw.proxyHops);
  const now = gw.clock.nowMs();
  const counted = limit > 0 && source !== "";
  return {
    blocked: counted && !bucketsOf(gw).has(source, limit, now),
    missed: (by, id, pid) => {
      // The id as asked, clipped: it is what an operator needs to tell a walker from a shop's bug.
      gw.log.event("order.lookup_miss", { source: source || "unknown", by, id: id.slice(0, 64), ...(pid === undefined ? {} : { pid }) });
      if (counted) bucketsOf(gw).take(source, limit, now);
    },
  };
}
