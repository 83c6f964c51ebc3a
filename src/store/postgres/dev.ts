// The DevStore sub-port (core/dev/store.ts) on PostgreSQL, as ../sqlite/dev.ts: units only `xpay
// dev` calls. The update is conditional like every transition, so it waits for a payment holding
// the row and then leaves the paid order alone; the read in the same unit sees what it did.
import type { SQL } from "bun";
import type { DevStore, ExpireNowResult } from "../../core/dev/store.ts";
import { getOrder } from "./orders.ts";
import { unit } from "./tx.ts";

export function postgresDev(db: () => Promise<SQL>): DevStore {
  return {
    expireOrderNow: async (tradeNo, now) =>
      unit(await db(), async (tx): Promise<ExpireNowResult> => {
        const changed = await tx`
          UPDATE orders SET status = 4, expire_time = LEAST(expire_time, ${now}) WHERE trade_no = ${tradeNo} AND status = 1`;
        const order = await getOrder(tx, tradeNo);
        if (!order) return { kind: "not_found" };
        return changed.count === 1 ? { kind: "expired", order } : { kind: "not_pending", order };
      }),
  };
}
