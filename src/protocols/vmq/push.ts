// GET or POST /appPush?t=&type=&price=&sign=md5(type + price + t + key): the monitor app read a
// received payment off a WeChat (type 1) or Alipay (type 2) notification. It is settled by the
// same unit as every report: dedupe, match by trade_amount on the accounts of that pay type the
// client's merchant can use, pay with its outbox row, store the report. A push that matches
// nothing is stored unmatched (V免签's 无订单转账). The app re-sends a push (same t, type, price,
// sign; a fork adds force_push=true): the dedupe key ignores force_push, so it pays once.
import type { Gateway } from "../../core/gateway.ts";
import { because, type Reason, reasonFields } from "../../core/reasons.ts";
import { insertUnmatched } from "../../core/report-bounds.ts";
import { markClientSeen, type ReportInput, settlePaymentReport } from "../../core/settle-report.ts";
import { md5Hex } from "../signing.ts";
import { clientAccounts } from "./accounts.ts";
import { rawOf } from "../report/codec.ts";
import { missing, reply, VmqRoute } from "./auth.ts";
import { checkAppTime, Msg, ok, payTypeOf, pushText } from "./codec.ts";
import { parseAppPrice } from "./price.ts";
import { vmqWindow } from "./settings.ts";

/** One received payment: the app stamps each with its clock, so (client, t, type, amount) names it. */
export function pushKey(clientId: number, t: string, type: string, cents: number): string {
  return md5Hex(`vmq\n${clientId}\n${t}\n${type}\n${cents}`);
}

/** Stored like an unmatched report (its dedupe key too), without asking the matching rule. */
async function unboundType(gw: Gateway, report: ReportInput, why: Reason) {
  const stored = await insertUnmatched(gw, { ...report, outcome: "unmatched", ...reasonFields(why), tradeNo: null, createdAt: gw.clock.now() });
  gw.metrics.report(report.kind, stored.duplicate ? "duplicate" : "unmatched");
  return { reportId: stored.id, outcome: stored.duplicate ? "duplicate" : "unmatched", reason: stored.reason, tradeNo: null };
}

export async function appPush(gw: Gateway, request: Request): Promise<Response> {
  const route = new VmqRoute(gw, request, "vmq-push");
  const p = await route.open();
  if (p instanceof Response) return p;
  const gone = missing(p, ["t", "type", "price", "sign"]);
  if (gone) return route.refuse({ msg: Msg.BadSign, reason: gone });
  const client = await route.client(pushText(p.type!, p.price!, p.t!), p.sign);
  if (!client) return route.refuse({ msg: Msg.BadSign, reason: "signature mismatch: sign = md5(type + price + t + key) over the texts as sent, with the key of a V免签 client" });
  // The signature is good; the fields must still have the one shape that makes the cut unique.
  const payType = payTypeOf(p.type);
  if (!payType) return route.refuse({ client, msg: Msg.BadType, reason: "type must be 1 (WeChat) or 2 (Alipay)" });
  const amount = parseAppPrice(p.price!);
  if (amount === null) return route.refuse({ client, msg: Msg.PriceFormat, reason: "price must be a Java double text of a whole number of cents, more than 0 and at most 99999999.99" });
  if (!checkAppTime(p.t!, gw.clock.nowMs(), await vmqWindow(gw))) {
    return route.refuse({ client, msg: Msg.ClockWrong, reason: "t must be the phone's clock in milliseconds (13 digits) within the vmq_time_window setting" });
  }
  const merchant = await gw.store.getMerchant(client.pid);
  if (!merchant?.active) return route.refuse({ client, counts: false, msg: Msg.Disabled, reason: `merchant ${client.pid} is disabled` });

  const report = { kind: "vmq-push" as const, pid: merchant.pid, signer: `client:${client.id}`, client: client.name, raw: rawOf("vmq-push", p), amount, payType, channelCode: "", dedupeKey: pushKey(client.id, p.t!, p.type!, amount) };
  const accounts = await clientAccounts(gw, client, payType);
  const r =
    accounts.length === 0
      ? await unboundType(gw, report, because("unwatched_type", { client: client.name, pay_type: payType }))
      : await settlePaymentReport(gw, report, { pid: merchant.pid, accounts: accounts.map((a) => a.id), amount, payType, channelCode: "", accountId: null, subAccount: "", orderId: "", outOrderId: "" }, [merchant]);
  const now = gw.clock.now();
  await gw.store.recordVmqPush(client.id, now);
  // A push is also a sign of life, as any accepted report is.
  await markClientSeen(gw, { kind: "vmq", pid: merchant.pid, name: client.name }, accounts.map((a) => a.id));
  // The app only logs the answer; 1 whenever the push is stored, so nothing re-sends it.
  return reply(ok({ outcome: r.outcome, orderId: r.tradeNo ?? "", reason: r.reason }));
}
