// The order state machine: what a status reads as, and which transitions are allowed.
import { OrderStatus, type Order } from "./types.ts";

/** A pending order past its expire_time reads as timed out everywhere, before the sweeper writes it. */
export function effectiveStatus(order: Pick<Order, "status" | "expireTime">, now: number): OrderStatus {
  if (order.status === OrderStatus.Pending && now >= order.expireTime) return OrderStatus.TimedOut;
  return order.status;
}

export type CancelDecision = { ok: true } | { ok: false; reason: string };

export function decideCancel(order: Pick<Order, "status" | "expireTime">, now: number): CancelDecision {
  switch (effectiveStatus(order, now)) {
    case OrderStatus.Pending:
      return { ok: true };
    case OrderStatus.Paid:
      return { ok: false, reason: "order is paid and cannot be closed" };
    case OrderStatus.Closed:
      return { ok: false, reason: "order is already closed" };
    case OrderStatus.TimedOut:
      return { ok: false, reason: "order has timed out and cannot be closed" };
    default:
      return { ok: false, reason: "order creation failed; there is nothing to close" };
  }
}

/** One word per status for filters typed by the operator (`order list --status`), like `notify list`'s. */
export const STATUS_WORDS = { pending: 1, paid: 2, closed: 3, expired: 4, failed: 5 } as const satisfies Record<string, OrderStatus>;

/** A status word or its number (1-5); null when it is neither. */
export function parseStatusWord(v: string): OrderStatus | null {
  if (/^[1-5]$/.test(v)) return Number(v) as OrderStatus;
  return Object.hasOwn(STATUS_WORDS, v) ? STATUS_WORDS[v as keyof typeof STATUS_WORDS] : null;
}

export const STATUS_NAMES: Record<OrderStatus, string> = {
  1: "pending",
  2: "paid",
  3: "closed",
  4: "timed out",
  5: "creation failed",
};
