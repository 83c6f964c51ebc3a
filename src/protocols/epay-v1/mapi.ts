// POST /xpay/epay/mapi.php: the server-side create; `code` 1 with the ways to pay.
import type { Gateway } from "../../core/gateway.ts";
import { formatYuan } from "../../core/money.ts";
import { json } from "../http.ts";
import { payTarget } from "../pay-target.ts";
import { authenticateV1 } from "./auth.ts";
import { v1Fail } from "./codec.ts";
import { epayCreate, type Server } from "./create.ts";
import { MapiParams } from "./schemas.ts";

export async function mapiPhp(gw: Gateway, request: Request, server: Server): Promise<Response> {
  const auth = await authenticateV1(gw, request, MapiParams);
  if (!auth.ok) return json(v1Fail(auth.msg));
  const p = auth.params;
  const r = await epayCreate(gw, auth.merchant, p, { family: "epay-v1", payType: p.type!, request, server });
  if (!r.ok) return json(v1Fail(r.msg));
  const { order, account } = r.outcome;
  // SDKs redirect to payurl when present, so the cashier (which shows trade_amount) comes first.
  const target = payTarget(order, account);
  const body: Record<string, string | number> = {
    code: 1,
    msg: "success",
    trade_no: order.tradeNo,
    payurl: gw.cashierUrl(order.tradeNo, request),
    money: formatYuan(order.amount),
    trade_amount: formatYuan(order.tradeAmount ?? order.amount),
  };
  if (target.qrcode) body.qrcode = target.qrcode;
  if (target.scheme) body.urlscheme = target.scheme;
  return json(body);
}
