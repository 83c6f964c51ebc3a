// GET or POST /closeOrder?orderId=&sign=md5(orderId + key): the shop gives up a pending order,
// through the core's cancel path (the same conditional update as every family's cancel). The
// key must be one of the order's merchant's V免签 clients; an order of another merchant, or of
// another family, reads as unknown.
import { cancelOrder } from "../../core/cancel-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { reply, VmqRoute } from "./auth.ts";
import { closeText, Msg, ok } from "./codec.ts";

export async function vmqCloseOrder(gw: Gateway, request: Request): Promise<Response> {
  const route = new VmqRoute(gw, request, null);
  const p = await route.open();
  if (p instanceof Response) return p;
  const orderId = p.orderId ?? "";
  const client = orderId === "" ? null : await route.client(closeText(orderId), p.sign);
  if (!client) return route.refuse({ msg: Msg.BadSign, reason: "signature mismatch: sign = md5(orderId + key)" });
  const order = orderId.length <= 64 ? await gw.store.getOrder(orderId) : null;
  if (!order || order.family !== "vmq" || order.pid !== client.pid) return reply({ code: -1, msg: Msg.NoOrder, data: null });
  const r = await cancelOrder(gw, order);
  return reply(r.ok ? ok() : { code: -1, msg: Msg.CannotClose, data: null });
}
