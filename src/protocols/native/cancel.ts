// POST /xpay/order/cancel
import { findMerchantOrder } from "../../core/find-order.ts";
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
  const found = await findMerchantOrder(gw, auth.merchant.pid, { tradeNo: p.order_id, outTradeNo: p.out_order_id });
  if (!found.ok) return json(fail(found.kind === "mismatch" ? Code.BadRequest : Code.NotFound, found.reason));
  const r = await cancelOrder(gw, found.order);
  return json(r.ok ? ok(null) : fail(Code.Conflict, r.reason));
}
