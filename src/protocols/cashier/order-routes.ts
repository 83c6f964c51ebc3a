// POST /api/order/info, /status and /audio: read-only views of one order for the payer's page.
import type { Gateway } from "../../core/gateway.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { returnUri } from "../../core/pay-order.ts";
import { json } from "../http.ts";
import { audioFields, infoFields, isAutoOpen, payedWaitTime, statusFields } from "./codec.ts";
import { findOrder } from "./lookup.ts";

export async function orderInfo(gw: Gateway, request: Request): Promise<Response> {
  const found = await findOrder(gw, request, { orderIdOnly: false });
  if (!found.ok) return json(found.error, found.error.code);
  const { order, merchant } = found;
  const status = effectiveStatus(order, gw.clock.now());
  return json(infoFields({ order, status, merchant, settings: await gw.settings(), returnUri: await returnUri(gw, order), baseUrl: gw.baseUrlFor(request) }));
}

export async function orderStatus(gw: Gateway, request: Request): Promise<Response> {
  const found = await findOrder(gw, request, { orderIdOnly: false });
  if (!found.ok) return json(found.error, found.error.code);
  const { order, merchant } = found;
  const status = effectiveStatus(order, gw.clock.now());
  // Asked only while pending: once the order ended there is nothing left to open.
  const account = status === 1 && order.accountId !== null ? await gw.store.getChannel(order.accountId) : null;
  return json(
    statusFields({
      order,
      status,
      returnUri: await returnUri(gw, order),
      autoOpen: isAutoOpen(account, order.device, request.headers.get("user-agent") ?? ""),
      waitTime: payedWaitTime(merchant, await gw.settings()),
    }),
  );
}

export async function orderAudio(gw: Gateway, request: Request): Promise<Response> {
  const found = await findOrder(gw, request, { orderIdOnly: false });
  if (!found.ok) return json(found.error, found.error.code);
  return json(audioFields(found.order, found.merchant, await gw.settings()));
}
