// GET or POST /api/report/{pid}/pc: the client has read a received amount (integer cents) off
// an account; the one pending order with that payable amount on an account the reporter watches
// is paid.
import { claimScope, presenceOf, reporterAccounts, reporterMerchants } from "../../core/clients/reporter.ts";
import type { Gateway } from "../../core/gateway.ts";
import { reporterSigner } from "../../core/report-bounds.ts";
import { accountFits } from "../../core/report-match.ts";
import { markClientSeen, settlePaymentReport } from "../../core/settle-report.ts";
import { accept, reply } from "./auth.ts";
import { amountReportKey, rawOf, settledEnvelope } from "./codec.ts";
import { AmountParams } from "./schemas.ts";

export async function amountReport(gw: Gateway, request: Request, pidText: string): Promise<Response> {
  const a = await accept(gw, request, "amount", pidText, AmountParams);
  if (!a.ok) return a.response;
  const p = a.params;
  const reporter = a.reporter!;
  const pid = reporter.watcher.pid;
  const amount = Number(p.amount);
  const accountId = p.channel_account_id ? Number(p.channel_account_id) : null;
  const watched = await reporterAccounts(gw, reporter);
  const r = await settlePaymentReport(
    gw,
    { kind: "amount", pid, signer: reporterSigner(reporter), client: reporter.client?.name ?? (p.coll_user || p.uid || p.channel_code!), raw: rawOf("amount", p), amount, payType: p.pay_type!, channelCode: p.channel_code!, dedupeKey: amountReportKey(pid, p) },
    {
      ...claimScope(reporter, watched), amount, payType: p.pay_type!, channelCode: p.channel_code!, accountId, subAccount: "",
      orderId: p.order_id ?? "", outOrderId: p.out_order_id ?? "",
    },
    await reporterMerchants(gw, reporter),
    { buyer: p.pay_user },
  );
  const seen = watched.filter((x) => accountFits(x, { payType: p.pay_type, accountId, channelCode: p.channel_code })).map((x) => x.id);
  await markClientSeen(gw, presenceOf(reporter, p.coll_user || p.uid || p.channel_code!, false), seen);
  return reply(settledEnvelope(r));
}
