import type { Database } from "bun:sqlite";
import type { PayResult, PayUnit } from "../../core/store.ts";
import { getOrder } from "./orders.ts";
import { toOrder } from "../rows.ts";
import { prepared } from "./statement.ts";
import { joined } from "./transaction.ts";
import { storedTradeNo } from "./order-keys.ts";

const PAY = prepared(
  `UPDATE orders SET status = 2, paid_at = $now, api_trade_no = COALESCE($api, api_trade_no), buyer = COALESCE($buyer, buyer)
   WHERE trade_no = $t AND trade_amount IS NOT NULL
     AND (status = 1 OR status = 4) AND expire_time >= $since
   RETURNING *`,
);
const OUTBOX = prepared(
  `INSERT INTO notifications (trade_no, pid, family, url, method, params, next_attempt_at, claimed_until, created_at)
   VALUES ($t, $pid, $family, $url, $method, $params, $now_ms, $leased, $now_ms) RETURNING id`,
);

/**
 * Marks an order paid and writes its outbox row in one commit. The update is conditional on the
 * order still being payable, so two concurrent payments can never both succeed. Inside a report's
 * settlement or an assignment it is a step of their unit (joined).
 */
export function payOrder(db: Database, u: PayUnit): PayResult {
  return joined(db, (): PayResult => {
    // The update first: its conditions are the payable ones, and the paid row comes back from it.
    // The order is read only to say why it was not paid (it changed nothing then).
    const t = storedTradeNo(db, u.tradeNo);
    const row = PAY(db).get({ t, now: u.now, api: u.apiTradeNo ?? null, buyer: u.buyer ?? null, since: u.acceptTimedOutSince }) as Record<string, unknown> | null;
    if (!row) {
      const before = getOrder(db, t);
      if (!before) return { kind: "not_found" };
      if (before.status === 2) return { kind: "already_paid", order: before };
      const reason =
        before.status === 3 ? "order is closed" : before.status === 5 ? "order creation failed" : before.tradeAmount === null ? "order has no pay type yet" : "order timed out beyond the match window";
      return { kind: "not_payable", order: before, reason };
    }
    const paid = toOrder(row);
    const entry = u.outbox(paid);
    let notificationId: number | null = null;
    if (entry) {
      // Leased when this process's worker takes the row as it is written (core/notify/handoff.ts).
      const leased = u.lease?.({ pid: paid.pid, url: entry.url }) ?? 0;
      const row = OUTBOX(db).get({ t, pid: paid.pid, family: entry.family, url: entry.url, method: entry.method, params: JSON.stringify(entry.params), now_ms: u.nowMs, leased }) as { id: number };
      notificationId = row.id;
    }
    return { kind: "paid", order: paid, notificationId };
  });
}
