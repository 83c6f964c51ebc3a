// POST /xpay/order/cancel
import { cancelOrder } from "../../core/cancel-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { json } from "../http.ts";
import { checkTimestamp } from "../timestamp.ts";
import { authenticate } from "./auth.ts";
import { Code, fail, ok } from "./codec.ts";
import { CancelParams } from "./schemas.ts";

export async function orderCancel(gw: Gateway, request: Request): Promise<Response> {
  const auth = await authenticate(gw, request, CancelParams);
  if (!auth.ok) return json(auth.error);
  const p = auth.params;
  const late = checkTimestamp(p.timestamp, gw.clock.now(), (await gw.settings()).int("timestamp_window"));
  if (late) return json(fail(Code.BadRequest, late));
  if (!p.order_id && !p.out_order_id) return json(fail(Code.BadRequest, "missing parameter: out_order_id or order_id"));
  const order = p.order_id ? await gw.store.getOrder(p.order_id) : await gw.store.getOrderByOutTradeNo(auth.merchant.pid, p.out_order_id!);
  if (!order || order.pid !== auth.merchant.pid) return json(fail(Code.NotFound, "order not found"));
  if (p.order_id && p.out_order_id && order.outTradeNo !== p.out_order_id) return json(fail(Code.BadRequest, "order_id and out_order_id name different orders"));
  const r = await cancelOrder(gw, order);
  return json(r.ok ? ok(null) : fail(Code.Conflict, r.reason));
}
