// POST /api/report/{pid}: a phone notification forwarded by an SmsForwarder-style client. The
// table of core/payment-formats.ts (anchored: package, title and whole text) turns it into a pay
// type and an amount; a message that is not a payment is stored as unmatched, never dropped.
import type { Gateway } from "../../core/gateway.ts";
import { matchPaymentMessage, parseForwardedContent } from "../../core/report-rules.ts";
import { markClientSeen, settlePaymentReport } from "../../core/settle-report.ts";
import { accountsFor } from "./accounts.ts";
import { accept, reject, reply } from "./auth.ts";
import { messageReportKey, rawOf, ReportCode, settledEnvelope } from "./codec.ts";
import { MessageParams } from "./schemas.ts";

export async function messageReport(gw: Gateway, request: Request, pidText: string): Promise<Response> {
  const a = await accept(gw, request, "message", pidText, MessageParams);
  if (!a.ok) return a.response;
  const p = a.params;
  const merchant = a.merchant!;
  const parsed = parseForwardedContent(p.content!);
  if (!parsed.ok) return reject(gw, "message", merchant.pid, p, ReportCode.BadRequest, `malformed content: ${parsed.reason}`);

  const client = parsed.message.device_name || p.from!;
  const base = { kind: "message" as const, pid: merchant.pid, client, raw: rawOf(p), channelCode: "", dedupeKey: messageReportKey(merchant.pid, p.content!) };
  const found = matchPaymentMessage(parsed.message);
  if (!found.ok) {
    await markClientSeen(gw, { kind: "phone", pid: merchant.pid, name: client }, []);
    // Stored and answered with the same reason, so the phone's log says why nothing was paid.
    const reason = `not a payment message: ${found.reason}`;
    const stored = await gw.store.insertReport({ ...base, amount: null, payType: "", outcome: "unmatched", reason, tradeNo: null, createdAt: gw.clock.now() });
    return reply(settledEnvelope({ reportId: stored.id, outcome: stored.duplicate ? "duplicate" : "unmatched", reason, tradeNo: null }));
  }

  const r = await settlePaymentReport(
    gw,
    { ...base, amount: found.amount, payType: found.payType },
    { pid: merchant.pid, amount: found.amount, payType: found.payType, channelCode: "", accountId: null, subAccount: "", orderId: "", outOrderId: "" },
    [merchant],
  );
  await markClientSeen(gw, { kind: "phone", pid: merchant.pid, name: client }, await accountsFor(gw, merchant.pid, { payType: found.payType }));
  return reply(settledEnvelope(r));
}
