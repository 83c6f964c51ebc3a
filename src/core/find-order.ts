// A merchant's order by platform or merchant order number: the one lookup every query and cancel
// route uses, so an order of another merchant is never found by guessing its trade_no.
import type { Gateway } from "./gateway.ts";
import type { Order } from "./types.ts";

export type FindOrder = { ok: true; order: Order } | { ok: false; kind: "not_found" | "mismatch"; reason: string };

export async function findMerchantOrder(gw: Gateway, pid: number, ref: { tradeNo?: string; outTradeNo?: string }): Promise<FindOrder> {
  const order = ref.tradeNo ? await gw.store.getOrder(ref.tradeNo) : ref.outTradeNo ? await gw.store.getOrderByOutTradeNo(pid, ref.outTradeNo) : null;
  if (!order || order.pid !== pid) return { ok: false, kind: "not_found", reason: "order not found" };
  if (ref.tradeNo && ref.outTradeNo && order.outTradeNo !== ref.outTradeNo) {
    return { ok: false, kind: "mismatch", reason: "the platform and merchant order numbers name different orders" };
  }
  return { ok: true, order };
}
