// POST /xpay/hashpay and /xpay/hashpay/payment/do.html (and the /xpay/hupijiao aliases).
import { createOrder } from "../../core/create-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { parseYuan } from "../../core/money.ts";
import { deviceFrom } from "../../core/order-input.ts";
import { json, peerIp } from "../http.ts";
import type { Params } from "../params.ts";
import { payTarget } from "../pay-target.ts";
import { authenticateHash } from "./auth.ts";
import { ErrCode, hashFail, hashFieldProblem, hashPayType, qrImageUrl, withHash } from "./codec.ts";
import { CreateParams } from "./schemas.ts";

type Server = Parameters<typeof peerIp>[1];

/** Family fields kept on the order: plugins and attach come back in the notification. */
function extraOf(p: Params): Record<string, string> {
  const extra: Record<string, string> = {};
  for (const k of ["plugins", "attach", "callback_url", "type", "wap_url", "wap_name", "payment"]) {
    if (p[k]) extra[k] = p[k]!;
  }
  return extra;
}

export async function hashCreate(gw: Gateway, request: Request, server: Server): Promise<Response> {
  const auth = await authenticateHash(gw, request, CreateParams);
  if (!auth.ok) return json(auth.body);
  const { params: p, merchant } = auth;
  const secret = merchant.secret;
  const problem = hashFieldProblem(p);
  if (problem) return json(hashFail(ErrCode.BadRequest, problem, secret));
  const amount = parseYuan(p.total_fee);
  if (amount === null) return json(hashFail(ErrCode.BadRequest, "invalid total_fee: a yuan amount > 0 to the cent, e.g. 0.10", secret));
  const outcome = await createOrder(gw, merchant, {
    pid: merchant.pid,
    outTradeNo: p.trade_order_id!,
    family: "hashpay",
    payType: hashPayType(p),
    name: p.title!,
    amount,
    notifyUrl: p.notify_url!,
    returnUrl: p.return_url ?? "",
    param: "",
    clientip: peerIp(request, server, gw.proxyHops),
    device: deviceFrom(p.type ? "mobile" : "", request.headers.get("user-agent") ?? ""),
    extra: extraOf(p),
  });
  if (!outcome.ok) {
    const code = outcome.kind === "invalid" ? ErrCode.BadRequest : outcome.kind === "conflict" ? ErrCode.Conflict : outcome.kind === "merchant" ? ErrCode.Forbidden : ErrCode.Failed;
    return json(hashFail(code, outcome.kind === "failed" ? `order creation failed: ${outcome.reason}` : outcome.reason, secret));
  }
  const { order, account } = outcome;
  const cashier = gw.cashierUrl(order.tradeNo, request);
  // The PC QR is the account's own code only when the payer pays exactly total_fee; otherwise it
  // encodes the cashier link, which shows the adjusted amount (and the method choice, if any).
  const qrContent = payTarget(order, account).qrcode ?? cashier;
  return json(withHash({ oderid: order.tradeNo, url_qrcode: qrImageUrl(gw.baseUrlFor(request), qrContent), url: cashier, errcode: ErrCode.Ok, errmsg: "" }, secret));
}
