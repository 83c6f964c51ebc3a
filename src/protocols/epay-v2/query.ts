// POST /xpay/epayn/api/pay/query (GET too: some SDK versions build a signed link).
import type { Gateway } from "../../core/gateway.ts";
import { epayStatus, statusStyle } from "../epay-v1/codec.ts";
import { authenticateV2, v2Json } from "./auth.ts";
import { v2Fail, v2QueryFields } from "./codec.ts";
import { QueryParams } from "./schemas.ts";

export async function v2Query(gw: Gateway, request: Request): Promise<Response> {
  const auth = await authenticateV2(gw, request, QueryParams);
  if (!auth.ok) return v2Json(gw, v2Fail(auth.msg));
  const p = auth.params;
  if (!p.trade_no && !p.out_trade_no) return v2Json(gw, v2Fail("missing parameter: trade_no or out_trade_no"));
  const order = p.trade_no ? await gw.store.getOrder(p.trade_no) : await gw.store.getOrderByOutTradeNo(auth.merchant.pid, p.out_trade_no!);
  if (!order || order.pid !== auth.merchant.pid) return v2Json(gw, v2Fail("order not found"));
  if (p.trade_no && p.out_trade_no && order.outTradeNo !== p.out_trade_no) return v2Json(gw, v2Fail("trade_no and out_trade_no name different orders"));
  const style = statusStyle((await gw.settings()).str("epay_status_style"));
  return v2Json(gw, v2QueryFields(order, epayStatus(order, gw.clock.now(), style)));
}
