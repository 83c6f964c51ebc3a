// The store units only `xpay dev` uses (src/core/dev/actions.ts). A sub-port like the others; it
// holds nothing a production server could reach: no route of `xpay serve` calls it.
import type { Order } from "../types.ts";

export type ExpireNowResult = { kind: "expired"; order: Order } | { kind: "not_pending"; order: Order } | { kind: "not_found" };

export interface DevStore {
  /**
   * Ends a pending order now as if its lifetime had run out: status 4 (timed out) and its
   * expire_time brought forward to `now`, so its amount slot and the late-payment window count
   * from now, exactly as for an order the sweeper timed out. Any other status is left alone.
   */
  expireOrderNow(tradeNo: string, now: number): Promise<ExpireNowResult>;
}
