// POST /xpay/epayn/api/pay/query (GET too: some SDK versions build a signed link).
import { findMerchantOrder } from "../../core/find-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { epayStatus, statusStyle } from "../epay-v1/codec.ts";
import { authenticateV2, v2Json, v2Refusal } from "./auth.ts";
import { v2Fail, v2QueryFields } from "./codec.ts";
import { QueryParams } from "./schemas.ts";

export async function v2Query(gw: Gateway, request: Request): Promise<Response> {
  const auth = await authenticateV2(gw, request, QueryParams);
  if (!auth.ok) return v2Refusal(auth.msg);
  const p = auth.params;
  if (!p.trade_no && !p.out_trade_no) return v2Json(gw, v2Fail("missing parameter: trade_no or out_trade_no"));
  const found = await findMerchantOrder(gw, auth.merchant.pid, { tradeNo: p.trade_no, outTradeNo: p.out_trade_no });
  if (!found.ok) return v2Json(gw, v2Fail(found.reason));
  const order = found.order;
  const style = statusStyle((await gw.settings()).str("epay_status_style"));
  return v2Json(gw, v2QueryFields(order, epayStatus(order, gw.clock.now(), style)));
}
