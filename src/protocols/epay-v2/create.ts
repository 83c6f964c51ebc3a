// POST /xpay/epayn/api/pay/create: code 0 with trade_no, pay_type and pay_info, platform-signed.
import type { Gateway } from "../../core/gateway.ts";
import { epayCreate, type Server } from "../epay-v1/create.ts";
import { authenticateV2, v2Json, v2Refusal } from "./auth.ts";
import { chooseCreatePay, unsupportedMethod, v2Fail } from "./codec.ts";
import { CreateParams } from "./schemas.ts";

export async function v2Create(gw: Gateway, request: Request, server: Server): Promise<Response> {
  const auth = await authenticateV2(gw, request, CreateParams);
  if (!auth.ok) return v2Refusal(auth.msg);
  const p = auth.params;
  const method = p.method || "web";
  const unsupported = unsupportedMethod(method);
  if (unsupported) return v2Json(gw, v2Fail(unsupported));
  const r = await epayCreate(gw, auth.merchant, p, { family: "epay-v2", payType: p.type!, extra: { method }, request, server });
  if (!r.ok) return v2Json(gw, v2Fail(r.msg));
  const { order, account } = r.outcome;
  const pay = chooseCreatePay(method, p.device ?? "", order, account, gw.cashierUrl(order.tradeNo, request));
  if (!pay.ok) return v2Json(gw, v2Fail(pay.msg));
  return v2Json(gw, { code: 0, msg: "success", trade_no: order.tradeNo, pay_type: pay.pay_type, pay_info: pay.pay_info });
}
