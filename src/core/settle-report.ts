// Turning a received-payment report into a paid order: the store settles it atomically with the
// pure matching rule and the same pay unit payOrder uses; this file only assembles the pieces and
// hands the notification to the worker afterwards (notify/handoff.ts).
import type { Gateway } from "./gateway.ts";
import { offerNotification } from "./notify/handoff.ts";
import { type PaymentFacts, payUnit } from "./pay-order.ts";
import { boundedResult, unmatchedBound } from "./report-bounds.ts";
import { because } from "./reasons.ts";
import { isPayable, type MatchDecision, type MatchView, matched, matchPayment, notPaidReason, type PaymentClaim, whyNotPayable } from "./report-match.ts";
import type { MonitorClient, NonceClaim, ReportRecord, SettleReportResult } from "./store.ts";
import type { Merchant } from "./types.ts";

/** `signer`: who answers for the report when not its merchant's secret (report-bounds.ts signerOf). */
export type ReportInput = Omit<ReportRecord, "outcome" | "reason" | "tradeNo" | "createdAt"> & { signer?: string };

async function settle(gw: Gateway, input: ReportInput, decide: (v: MatchView, now: number, window: number) => MatchDecision, merchants: Merchant[], facts: PaymentFacts, nonce?: NonceClaim) {
  const window = (await gw.settings()).int("match_window");
  const now = gw.clock.now();
  const byPid = new Map(merchants.map((m) => [m.pid, m]));
  const { signer, ...report } = input;
  const bound = await unmatchedBound(gw, report, signer);
  const offer = offerNotification(gw);
  const settled = await gw.store.settleReport({
    bound,
    report: { ...report, outcome: "unmatched", reason: "", tradeNo: null, createdAt: now },
    decide: (view) => {
      const d = decide(view, now, window);
      // The reporter may only pay the merchants it speaks for; anything else is stored, never thrown
      // (a throw here was an HTTP 500 the phone retried forever, and the report was lost).
      if (d.kind === "matched" && !byPid.has(d.order.pid)) return { kind: "unmatched", reason: because("other_merchant") };
      return d;
    },
    pay: (order) => offer.wrap(payUnit(gw, byPid.get(order.pid)!, window, order.tradeNo, facts)),
    notPaid: notPaidReason,
    nonce,
  }).catch((e) => {
    offer.settled(null);
    throw e;
  });
  offer.settled(settled.pay);
  const result = boundedResult(settled, bound);
  if (result.replayed) {
    gw.metrics.report(report.kind, "duplicate");
    gw.log.event("report", { kind: report.kind, pid: report.pid, outcome: "duplicate", reason: "replayed timestamp" });
    return result;
  }
  if (result.pay?.kind === "paid") gw.metrics.orderPaid(result.pay.order);
  gw.metrics.report(report.kind, result.outcome);
  gw.log.event("report", { kind: report.kind, pid: report.pid, amount: report.amount, outcome: result.outcome, trade_no: result.tradeNo, reason: result.reason, ...(result.reportId === null ? { stored: false } : {}) });
  return result;
}

/** Amount, message and third-account reports. `merchants` must hold every merchant the claim can reach. */
export async function settlePaymentReport(gw: Gateway, report: ReportInput, claim: PaymentClaim, merchants: Merchant[], facts: PaymentFacts = {}, nonce?: NonceClaim): Promise<SettleReportResult> {
  return settle(gw, report, (view, now, window) => matchPayment(claim, view, now, window), merchants, facts, nonce);
}

/**
 * `simulate-pay`: the operator says this order was paid; stored as an operator report from
 * `client` ("cli"; `xpay dev`'s simulated payments say "dev").
 */
export async function settleOperatorPayment(gw: Gateway, tradeNo: string, facts: PaymentFacts = {}, client = "cli"): Promise<SettleReportResult | null> {
  const order = await gw.store.getOrder(tradeNo);
  if (!order) return null;
  const merchant = await gw.store.getMerchant(order.pid);
  if (!merchant) return null;
  const report: ReportInput = {
    kind: "operator", pid: order.pid, client, raw: JSON.stringify({ trade_no: tradeNo, ...facts }),
    amount: order.tradeAmount, payType: order.payType, channelCode: "", dedupeKey: null,
  };
  const decide = (view: MatchView, now: number, window: number): MatchDecision => {
    const current = view.orderByTradeNo(tradeNo);
    if (!current) return { kind: "unmatched", reason: because("order_not_found") };
    return isPayable(current, now, window) ? matched(current) : { kind: "unmatched", reason: whyNotPayable(current, now, window), order: current };
  };
  return settle(gw, report, decide, [merchant], facts);
}

/**
 * Any accepted report counts as a heartbeat of its client and of the accounts it concerns. The
 * beat also extends the client's online history (store.devices) while beats come within the
 * heartbeat timeout, so its gaps are the silences longer than that.
 */
export async function markClientSeen(
  gw: Gateway,
  client: { kind: MonitorClient["kind"]; pid: number; name: string; channelId?: number | null; extData?: string; onlyListed?: boolean },
  accountIds: number[],
): Promise<void> {
  const gap = (await gw.settings()).int("heartbeat_timeout");
  await gw.store.recordClientSeen(
    { kind: client.kind, pid: client.pid, name: client.name || "(unnamed)", channelId: client.channelId ?? null, extData: client.extData ?? "", lastSeenAt: gw.clock.now() },
    accountIds,
    { gap },
    { onlyListed: client.onlyListed },
  );
}
