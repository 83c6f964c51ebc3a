// GET or POST /xpay/epayn/api/pay/submit: 302 to the cashier; without `type` the payer picks the
// method there (the order stays pending with no account until the pick).
import type { Gateway } from "../../core/gateway.ts";
import { epayCreate, type Server } from "../epay-v1/create.ts";
import { errorPage, redirect } from "../http.ts";
import { authenticateV2 } from "./auth.ts";
import { SubmitParams } from "./schemas.ts";

export async function v2Submit(gw: Gateway, request: Request, server: Server): Promise<Response> {
  const auth = await authenticateV2(gw, request, SubmitParams);
  if (!auth.ok) return errorPage(auth.msg, auth.throttled ? 429 : 400);
  const p = auth.params;
  const r = await epayCreate(gw, auth.merchant, p, { family: "epay-v2", payType: p.type ?? "", request, server });
  if (!r.ok) return errorPage(r.msg);
  return redirect(gw.cashierUrl(r.outcome.order.tradeNo, request));
}
