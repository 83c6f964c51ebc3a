// Marks an order paid and writes its outbox row in one commit. The update is conditional on the
// order still being payable: a payment on another instance waits for the row's lock, finds the
// order paid when its update is evaluated again, and reads "already paid". The order is read only
// to say why it was not paid, as on SQLite: a read for update before it was a round trip to the
// server on every payment.
import type { SQL } from "bun";
import type { PayResult, PayUnit } from "../../core/store.ts";
import { toOrder } from "../rows.ts";
import { getOrder } from "./orders.ts";
import { type Ending, unit } from "./tx.ts";

/**
 * The unit inside a transaction the caller holds (settleReport and assignReport pay inside theirs).
 * `beside`: the caller's own write once the order is paid (the settlement's stored report), a query
 * not sent yet, sent with the outbox row on the transaction's connection before either answer is
 * read, so the two take one round trip: the paid order's row stays locked until the commit
 * (docs/decisions/stores.md). `end`: the caller's pipelined unit (tx.ts), whose COMMIT then goes
 * out behind them in the same round trip; it is not sent when the order was not paid.
 */
export async function payIn<B = undefined>(tx: SQL, u: PayUnit, o: { beside?: PromiseLike<B>; end?: Ending } = {}): Promise<PayResult & { beside?: B }> {
  const rows = await tx`
    UPDATE orders SET status = 2, paid_at = ${u.now}, api_trade_no = COALESCE(${u.apiTradeNo ?? null}::text, api_trade_no),
      buyer = COALESCE(${u.buyer ?? null}::text, buyer)
    WHERE trade_no = ${u.tradeNo} AND trade_amount IS NOT NULL AND (status = 1 OR status = 4) AND expire_time >= ${u.acceptTimedOutSince}
    RETURNING *`;
  if (rows.length !== 1) {
    // Read after the update found nothing: under READ COMMITTED it sees the payment that won.
    const before = await getOrder(tx, u.tradeNo);
    if (!before) return { kind: "not_found" };
    if (before.status === 2) return { kind: "already_paid", order: before };
    const reason =
      before.status === 3 ? "order is closed" : before.status === 5 ? "order creation failed" : before.tradeAmount === null ? "order has no pay type yet" : "order timed out beyond the match window";
    return { kind: "not_payable", order: before, reason };
  }
  const paid = toOrder(rows[0]);
  const entry = u.outbox(paid);
  // Leased when this process's worker takes the row as it is written (core/notify/handoff.ts).
  const outbox: PromiseLike<{ id: unknown }[]> = entry
    ? tx`
      INSERT INTO notifications (trade_no, pid, family, url, method, params, next_attempt_at, claimed_until, created_at)
      VALUES (${u.tradeNo}, ${paid.pid}, ${entry.family}, ${entry.url}, ${entry.method}, ${JSON.stringify(entry.params)}, ${u.nowMs},
              ${u.lease?.({ pid: paid.pid, url: entry.url }) ?? 0}, ${u.nowMs}) RETURNING id`
    : Promise.resolve([]);
  // Both sent before either answer is read, in this order; a failure of either fails the transaction
  // (the first answer to fail is the one thrown: the statement behind it only reads "transaction aborted").
  const beside = o.beside ?? Promise.resolve(undefined as B);
  const [inserted, besideResult] = o.end ? await o.end.commitWith(outbox, beside) : await Promise.all([outbox, beside]);
  const notificationId = entry ? Number(inserted[0]!.id) : null;
  return { kind: "paid", order: paid, notificationId, ...(o.beside ? { beside: besideResult } : {}) };
}

export function payOrder(sql: SQL, u: PayUnit): Promise<PayResult> {
  return unit(sql, (tx) => payIn(tx, u));
}
