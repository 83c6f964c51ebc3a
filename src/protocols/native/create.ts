// POST /xpay/order/create and /xpay/order/create-page.
import { createOrder, type CreateOutcome } from "../../core/create-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { parseYuan } from "../../core/money.ts";
import { deviceFrom } from "../../core/order-input.ts";
import { errorPage, json, peerIp, redirect } from "../http.ts";
import { authenticate } from "./auth.ts";
import { Code, createData, type Envelope, fail, ok } from "./codec.ts";
import { CreateParams } from "./schemas.ts";

type Server = Parameters<typeof peerIp>[1];

async function create(gw: Gateway, request: Request, server: Server): Promise<{ outcome: CreateOutcome } | { error: Envelope }> {
  const auth = await authenticate(gw, request, CreateParams);
  if (!auth.ok) return { error: auth.error };
  const p = auth.params;
  const amount = parseYuan(p.money);
  if (amount === null) return { error: fail(Code.BadRequest, "invalid money: a yuan amount > 0 with at most 2 decimals, e.g. 10.00") };
  const outcome = await createOrder(gw, auth.merchant, {
    pid: auth.merchant.pid,
    outTradeNo: p.out_trade_no!,
    family: "native",
    payType: p.pay_type!,
    name: p.name!,
    amount,
    notifyUrl: p.notify_url ?? "",
    returnUrl: p.return_url ?? "",
    param: p.param ?? "",
    clientip: p.clientip || peerIp(request, server, gw.proxyHops),
    device: deviceFrom(p.device ?? "", request.headers.get("user-agent") ?? ""),
    extra: {},
  });
  return { outcome };
}

function failure(o: Extract<CreateOutcome, { ok: false }>): Envelope {
  const code = o.kind === "invalid" ? Code.BadRequest : o.kind === "merchant" ? Code.Forbidden : o.kind === "conflict" ? Code.Conflict : Code.Unavailable;
  return fail(code, o.kind === "failed" ? `order creation failed: ${o.reason}` : o.reason);
}

export async function createJson(gw: Gateway, request: Request, server: Server): Promise<Response> {
  const r = await create(gw, request, server);
  if ("error" in r) return json(r.error);
  const o = r.outcome;
  if (!o.ok) return json(failure(o));
  return json(ok(createData(o.order, o.account, gw.cashierUrl(o.order.tradeNo, request))));
}

export async function createPage(gw: Gateway, request: Request, server: Server): Promise<Response> {
  const r = await create(gw, request, server);
  if ("error" in r) return errorPage(r.error.msg);
  if (!r.outcome.ok) return errorPage(failure(r.outcome).msg);
  return redirect(gw.cashierUrl(r.outcome.order.tradeNo, request));
}
