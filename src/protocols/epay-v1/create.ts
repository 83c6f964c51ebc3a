// The epay create step shared by V1 (submit.php, mapi.php) and V2 (submit, create): both carry the
// same order fields, so they build the core's NewOrder the same way after their own verification.
import { createOrder, type CreateOutcome } from "../../core/create-order.ts";
import type { Gateway } from "../../core/gateway.ts";
import { parseYuan } from "../../core/money.ts";
import { deviceFrom } from "../../core/order-input.ts";
import type { Family, Merchant } from "../../core/types.ts";
import { peerIp } from "../http.ts";
import type { Params } from "../params.ts";

export type Server = Parameters<typeof peerIp>[1];
export type EpayCreate = { ok: true; outcome: Extract<CreateOutcome, { ok: true }> } | { ok: false; msg: string };

export const BAD_MONEY = "invalid money: a yuan amount > 0 with at most 2 decimals, e.g. 10.00";

/** Creates (or finds again, on a retry with the same out_trade_no) the order of a verified request. */
export async function epayCreate(
  gw: Gateway,
  merchant: Merchant,
  p: Params,
  o: { family: Family; payType: string; extra?: Record<string, string>; request: Request; server: Server },
): Promise<EpayCreate> {
  const amount = parseYuan(p.money);
  if (amount === null) return { ok: false, msg: BAD_MONEY };
  const outcome = await createOrder(gw, merchant, {
    pid: merchant.pid,
    outTradeNo: p.out_trade_no ?? "",
    family: o.family,
    payType: o.payType,
    name: p.name ?? "",
    amount,
    notifyUrl: p.notify_url ?? "",
    returnUrl: p.return_url ?? "",
    param: p.param ?? "",
    clientip: p.clientip || peerIp(o.request, o.server, gw.proxyHops),
    device: deviceFrom(p.device ?? "", o.request.headers.get("user-agent") ?? ""),
    extra: o.extra ?? {},
  });
  if (outcome.ok) return { ok: true, outcome };
  return { ok: false, msg: outcome.kind === "failed" ? `order creation failed: ${outcome.reason}` : outcome.reason };
}
