// GET or POST /checkOrder?orderId=: what V免签's pay page asks until the order is paid, then
// follows: -1 订单未支付 / 订单已过期, or code 1 with the signed return URL as data.
import type { Gateway } from "../../core/gateway.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { returnUri } from "../../core/pay-order.ts";
import { OrderStatus } from "../../core/types.ts";
import { reply } from "./auth.ts";
import { fail, Msg, ok } from "./codec.ts";
import type { VmqOrderLookup } from "./lookup.ts";

/** Paid: the return URL signed like the notification (amounts with two decimals); else why not. */
export async function vmqCheckOrder(gw: Gateway, lookup: VmqOrderLookup, request: Request): Promise<Response> {
  const found = await lookup.find(request);
  if ("response" in found) return found.response;
  const order = found.order;
  const status = effectiveStatus(order, gw.clock.now());
  if (status === OrderStatus.Pending) return reply(fail(Msg.Unpaid));
  if (status !== OrderStatus.Paid) return reply(fail(Msg.Expired));
  // No return URL given at create: the cashier page, which shows the order paid.
  return reply(ok((await returnUri(gw, order)) ?? gw.cashierUrl(order.tradeNo, request)));
}
