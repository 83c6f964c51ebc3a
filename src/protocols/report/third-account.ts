// GET or POST /api/report/third-account: a watcher of a third-party account reports a received
// flow. It is signed with the operator's third_account_secret and may pay any merchant's order:
// by order_id / out_order_id when given, else by amount on the account named by sub_account.
import type { Gateway } from "../../core/gateway.ts";
import { markClientSeen, settlePaymentReport } from "../../core/settle-report.ts";
import { accountsFor } from "./accounts.ts";
import { accept, reply } from "./auth.ts";
import { rawOf, settledEnvelope, thirdAccountKey } from "./codec.ts";
import { ThirdAccountParams } from "./schemas.ts";

export async function thirdAccountReport(gw: Gateway, request: Request): Promise<Response> {
  const a = await accept(gw, request, "third-account", null, ThirdAccountParams);
  if (!a.ok) return a.response;
  const p = a.params;
  const amount = Number(p.amount);
  const r = await settlePaymentReport(
    gw,
    { kind: "third-account", pid: null, client: p.account!, raw: rawOf("third-account", p), amount, payType: p.pay_type!, channelCode: p.channel_code!, dedupeKey: thirdAccountKey(p) },
    {
      pid: null, amount, payType: p.pay_type!, channelCode: p.channel_code!, accountId: null, subAccount: p.sub_account!,
      orderId: p.order_id ?? "", outOrderId: p.out_order_id ?? "",
    },
    await gw.store.listMerchants(),
  );
  const seen = await accountsFor(gw, null, { payType: p.pay_type, named: p.sub_account });
  await markClientSeen(gw, { kind: "third-account", pid: 0, name: p.account!, extData: `type=${p.type}` }, seen);
  return reply(settledEnvelope(r));
}
