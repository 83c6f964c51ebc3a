import type { Gateway } from "./gateway.ts";

/** Writes status 4 for pending orders past expire_time (reads already see them as timed out). */
export async function sweepExpired(gw: Gateway): Promise<number> {
  return gw.store.expireOrders(gw.clock.now(), (family, payType, n) => gw.metrics.ordersExpired(family, payType, n));
}
