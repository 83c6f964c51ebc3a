// POST /api/report/{pid}: a phone notification forwarded by an SmsForwarder-style client. The
// table of core/payment-formats.ts (anchored: package, title and whole text), then the operator's
// rules (core/rules), turn it into a pay type and an amount; a message that is not a payment is
// stored as unmatched, never dropped, and one that looks like a payment nobody recognised is kept
// for the operator (core/rules/unparsed.ts). SmsForwarder's own webhook (smsforwarder.ts) ends in
// settleMessage too.
import { claimScope, presenceOf, type Reporter, reporterAccounts, reporterMerchants } from "../../core/clients/reporter.ts";
import type { Gateway } from "../../core/gateway.ts";
import { insertUnmatched, reporterSigner } from "../../core/report-bounds.ts";
import { type ForwardedMessage, parseForwardedContent } from "../../core/report-rules.ts";
import { recogniseMessage } from "../../core/rules/operator-rules.ts";
import { keepUnrecognised } from "../../core/rules/unparsed.ts";
import { markClientSeen, settlePaymentReport } from "../../core/settle-report.ts";
import type { NonceClaim, SettleReportResult } from "../../core/store.ts";
import { because, coded, reasonFields } from "../../core/reasons.ts";
import { accept, reject, reply } from "./auth.ts";
import { messageReportKey, rawOf, ReportCode, settledEnvelope } from "./codec.ts";
import { MessageParams } from "./schemas.ts";

export async function messageReport(gw: Gateway, request: Request, pidText: string): Promise<Response> {
  const a = await accept(gw, request, "message", pidText, MessageParams);
  if (!a.ok) return a.response;
  const p = a.params;
  const reporter = a.reporter!;
  const parsed = parseForwardedContent(p.content!);
  if (!parsed.ok) return reject(gw, "message", reporter.watcher.pid, p, ReportCode.BadRequest, `malformed content: ${parsed.reason}`);
  const r = await settleMessage(gw, reporter, parsed.message, { phone: parsed.message.device_name || p.from!, raw: rawOf("message", p), content: p.content! });
  return reply(settledEnvelope(r));
}

export interface MessageSource {
  /** The phone's name for `client list` when a merchant's AppSecret signed (a keyed client has its own). */
  phone: string;
  raw: string;
  /** The whole forwarded content: it carries the receive time, so it names one notification. */
  content: string;
  /** A signed timestamp that must not have been used before (SmsForwarder). */
  nonce?: NonceClaim;
  /** What names one notification (default: the merchant and the whole content). */
  dedupeKey?: string;
}

/** Reads a forwarded notification and settles it as a payment, or stores why it is not one. */
export async function settleMessage(gw: Gateway, reporter: Reporter, m: ForwardedMessage, src: MessageSource): Promise<SettleReportResult> {
  const pid = reporter.watcher.pid;
  const presence = presenceOf(reporter, src.phone);
  const base = { kind: "message" as const, pid, signer: reporterSigner(reporter), client: presence.name, raw: src.raw, channelCode: "", dedupeKey: src.dedupeKey ?? messageReportKey(pid, src.content) };
  const found = await recogniseMessage(gw, m);
  const watched = await reporterAccounts(gw, reporter);
  if (!found.ok) {
    // Stored and answered with the same reason, so the phone's log says why nothing was paid. No
    // dedupe key: once the operator adds a rule for a new wording, the same notification sent
    // again must pay, not read as a duplicate of this row.
    const why = because("not_payment", { why: coded(found.why) });
    const stored = await insertUnmatched(gw, { ...base, dedupeKey: null, amount: null, payType: "", outcome: "unmatched", ...reasonFields(why), tradeNo: null, createdAt: gw.clock.now() }, src.nonce);
    if (stored.replayed) return replayed(gw);
    // Any accepted report is a sign of life: SmsForwarder sends no heartbeat of its own.
    await markClientSeen(gw, presence, watched.map((x) => x.id));
    if (await keepUnrecognised(gw, pid, base.dedupeKey, m, found.reason)) gw.metrics.unrecognisedMessage();
    gw.metrics.report("message", "unmatched");
    return { reportId: stored.id, outcome: "unmatched", reason: stored.reason, why, tradeNo: null, pay: null };
  }
  const r = await settlePaymentReport(
    gw,
    { ...base, amount: found.amount, payType: found.payType },
    { ...claimScope(reporter, watched), amount: found.amount, payType: found.payType, channelCode: "", accountId: null, subAccount: "", orderId: "", outOrderId: "" },
    await reporterMerchants(gw, reporter),
    {},
    src.nonce,
  );
  if (r.replayed) return r;
  await markClientSeen(gw, presence, watched.filter((x) => x.payType === found.payType).map((x) => x.id));
  // An operator's rule recognised it: the copy kept as unrecognised (an earlier send) is not any more.
  if (found.operator) await gw.store.rules.forgetUnparsed(pid, base.dedupeKey);
  return r;
}

function replayed(gw: Gateway): SettleReportResult {
  gw.metrics.report("message", "duplicate");
  gw.log.event("report", { kind: "message", outcome: "duplicate", reason: "replayed timestamp" });
  return { reportId: 0, outcome: "duplicate", reason: "this request was accepted before (its timestamp is used); nothing stored", tradeNo: null, pay: null, replayed: true };
}
