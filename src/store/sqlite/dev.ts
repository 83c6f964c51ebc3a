// SQLite side of the DevStore sub-port (src/core/dev/store.ts): units only `xpay dev` calls.
import type { Database } from "bun:sqlite";
import type { DevStore, ExpireNowResult } from "../../core/dev/store.ts";
import { getOrder } from "./orders.ts";
import { inTransaction } from "./transaction.ts";
import { storedTradeNo } from "./order-keys.ts";

export class SqliteDevStore implements DevStore {
  constructor(private readonly db: Database) {}

  async expireOrderNow(tradeNo: string, now: number): Promise<ExpireNowResult> {
    const t = storedTradeNo(this.db, tradeNo);
    return inTransaction(this.db, (): ExpireNowResult => {
      // Conditional like every transition: only a pending order ends; a paid one stays paid.
      const changed = this.db
        .query("UPDATE orders SET status = 4, expire_time = MIN(expire_time, $now) WHERE trade_no = $t AND status = 1")
        .run({ t, now }).changes;
      const order = getOrder(this.db, t);
      if (!order) return { kind: "not_found" };
      return changed === 1 ? { kind: "expired", order } : { kind: "not_pending", order };
    });
  }
}
