import type { Gateway } from "./gateway.ts";
import { decideCancel } from "./order-state.ts";
import type { Order } from "./types.ts";

export type CancelOutcome = { ok: true } | { ok: false; reason: string };

/** pending -> closed; the spec's table for everything else. The update is conditional, so a
 * payment racing the cancel wins or loses cleanly. */
export async function cancelOrder(gw: Gateway, order: Order): Promise<CancelOutcome> {
  const now = gw.clock.now();
  const d = decideCancel(order, now);
  if (!d.ok) return d;
  if (await gw.store.closeOrder(order.tradeNo, now)) return { ok: true };
  const fresh = await gw.store.getOrder(order.tradeNo);
  const again = fresh ? decideCancel(fresh, now) : { ok: false as const, reason: "order not found" };
  return again.ok ? { ok: false, reason: "order changed while closing; try again" } : again;
}
