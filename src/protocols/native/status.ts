// POST /xpay/order/status
import type { Gateway } from "../../core/gateway.ts";
import { effectiveStatus } from "../../core/order-state.ts";
import { returnUri } from "../../core/pay-order.ts";
import { json } from "../http.ts";
import { authenticate } from "./auth.ts";
import { Code, fail, ok } from "./codec.ts";
import { StatusParams } from "./schemas.ts";

export async function orderStatus(gw: Gateway, request: Request): Promise<Response> {
  const auth = await authenticate(gw, request, StatusParams);
  if (!auth.ok) return json(auth.error);
  const order = await gw.store.getOrderByOutTradeNo(auth.merchant.pid, auth.params.out_order_id!);
  if (!order) return json(fail(Code.NotFound, "order not found"));
  const data: { status: number; expire_time: number; return_uri?: string } = {
    status: effectiveStatus(order, gw.clock.now()),
    expire_time: order.expireTime,
  };
  const uri = await returnUri(gw, order);
  if (uri !== null) data.return_uri = uri;
  return json(ok(data));
}
