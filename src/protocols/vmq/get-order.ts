// GET or POST /getOrder?orderId=: the order's V免签 fields (payUrl, reallyPrice, state, ...), no
// signature: public by the order number, like the template API (lookup.ts).
import type { Gateway } from "../../core/gateway.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { reply } from "./auth.ts";
import { ok, orderData } from "./codec.ts";
import type { VmqOrderLookup } from "./lookup.ts";

export async function vmqGetOrder(gw: Gateway, lookup: VmqOrderLookup, request: Request): Promise<Response> {
  const found = await lookup.find(request);
  if ("response" in found) return found.response;
  const order = found.order;
  const account = order.accountId === null ? null : await gw.store.getChannel(order.accountId);
  const ttl = (await gw.settings()).int("order_ttl");
  return reply(ok(orderData(order, account, ttl, effectiveStatus(order, gw.clock.now()))));
}
