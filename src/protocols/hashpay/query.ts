// POST /xpay/hashpay/payment/query.html: the spec leaves the shape open; DESIGN.md fixes it as
// {errcode, errmsg, data: {status OD/WP/CD, ...}, hash}.
import { findMerchantOrder } from "../../core/find-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { json } from "../http.ts";
import { authenticateHash } from "./auth.ts";
import { ErrCode, hashFail, queryData, signHash } from "./codec.ts";
import { QueryParams } from "./schemas.ts";

export async function hashQuery(gw: Gateway, request: Request): Promise<Response> {
  const auth = await authenticateHash(gw, request, QueryParams);
  if (!auth.ok) return json(auth.body);
  const { params: p, merchant } = auth;
  if (!p.out_trade_order && !p.open_order_id) return json(hashFail(ErrCode.BadRequest, "missing parameter: out_trade_order or open_order_id", merchant.secret));
  const found = await findMerchantOrder(gw, merchant.pid, { tradeNo: p.open_order_id, outTradeNo: p.out_trade_order });
  if (!found.ok) return json(hashFail(found.kind === "mismatch" ? ErrCode.BadRequest : ErrCode.NotFound, found.reason, merchant.secret));
  const order = found.order;
  const data = queryData(order, gw.clock.now());
  const top = { errcode: ErrCode.Ok, errmsg: "" };
  // `data` is an object, which the vendor's flat hash rule cannot sign; the hash covers errcode,
  // errmsg and the fields of data flattened into one level (their names never collide).
  return json({ ...top, data, hash: signHash({ ...top, ...data }, merchant.secret) });
}
