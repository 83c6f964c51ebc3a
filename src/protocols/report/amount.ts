// GET or POST /api/report/{pid}/pc: the client has read a received amount (integer cents) off
// an account; the one pending order with that payable amount there is paid.
import type { Gateway } from "../../core/gateway.ts";
import { markClientSeen, settlePaymentReport } from "../../core/settle-report.ts";
import { accountsFor } from "./accounts.ts";
import { accept, reply } from "./auth.ts";
import { amountReportKey, rawOf, settledEnvelope } from "./codec.ts";
import { AmountParams } from "./schemas.ts";

export async function amountReport(gw: Gateway, request: Request, pidText: string): Promise<Response> {
  const a = await accept(gw, request, "amount", pidText, AmountParams);
  if (!a.ok) return a.response;
  const p = a.params;
  const merchant = a.merchant!;
  const amount = Number(p.amount);
  const accountId = p.channel_account_id ? Number(p.channel_account_id) : null;
  const client = p.coll_user || p.uid || p.channel_code!;
  const r = await settlePaymentReport(
    gw,
    { kind: "amount", pid: merchant.pid, client, raw: rawOf(p), amount, payType: p.pay_type!, channelCode: p.channel_code!, dedupeKey: amountReportKey(merchant.pid, p) },
    {
      pid: merchant.pid, amount, payType: p.pay_type!, channelCode: p.channel_code!, accountId, subAccount: "",
      orderId: p.order_id ?? "", outOrderId: p.out_order_id ?? "",
    },
    [merchant],
    { buyer: p.pay_user },
  );
  const seen = await accountsFor(gw, merchant.pid, { payType: p.pay_type, accountId, channelCode: p.channel_code });
  await markClientSeen(gw, { kind: "phone", pid: merchant.pid, name: client }, seen);
  return reply(settledEnvelope(r));
}
