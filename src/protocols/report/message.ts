// POST /api/report/{pid}: a phone notification forwarded by an SmsForwarder-style client. The
// table of core/payment-formats.ts (anchored: package, title and whole text), then the operator's
// rules (core/rules), turn it into a pay type and an amount; a message that is not a payment is
// stored as unmatched, never dropped, and one that looks like a payment nobody recognised is kept
// for the operator (core/rules/unparsed.ts).
import type { Gateway } from "../../core/gateway.ts";
import { parseForwardedContent } from "../../core/report-rules.ts";
import { recogniseMessage } from "../../core/rules/operator-rules.ts";
import { keepUnrecognised } from "../../core/rules/unparsed.ts";
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
  const found = await recogniseMessage(gw, parsed.message);
  if (!found.ok) {
    await markClientSeen(gw, { kind: "phone", pid: merchant.pid, name: client }, []);
    // Stored and answered with the same reason, so the phone's log says why nothing was paid. No
    // dedupe key: once the operator adds a rule for a new wording, the same notification sent
    // again must pay, not read as a duplicate of this row.
    const reason = `not a payment message: ${found.reason}`;
    const stored = await gw.store.insertReport({ ...base, dedupeKey: null, amount: null, payType: "", outcome: "unmatched", reason, tradeNo: null, createdAt: gw.clock.now() });
    if (await keepUnrecognised(gw, merchant.pid, base.dedupeKey, parsed.message, found.reason)) gw.metrics.unrecognisedMessage();
    gw.metrics.report("message", "unmatched");
    return reply(settledEnvelope({ reportId: stored.id, outcome: "unmatched", reason, tradeNo: null }));
  }

  const r = await settlePaymentReport(
    gw,
    { ...base, amount: found.amount, payType: found.payType },
    { pid: merchant.pid, amount: found.amount, payType: found.payType, channelCode: "", accountId: null, subAccount: "", orderId: "", outOrderId: "" },
    [merchant],
  );
  await markClientSeen(gw, { kind: "phone", pid: merchant.pid, name: client }, await accountsFor(gw, merchant.pid, { payType: found.payType }));
  // An operator's rule recognised it: the copy kept as unrecognised (an earlier send) is not any more.
  if (found.operator) await gw.store.rules.forgetUnparsed(merchant.pid, base.dedupeKey);
  return reply(settledEnvelope(r));
}
