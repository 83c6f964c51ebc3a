// What a client holding a secret can make xpay store at will is its unmatched reports: every
// payment that matches no order (unique pay_time, any amount) and every forwarded message that is
// not a payment. A matched report needs an order to pay, a duplicate is pruned with the other
// non-payments; unmatched rows were the one kind a signed flood could grow without limit.
//
// So each signer keeps at most `report_unmatched_daily` unmatched rows per day (China day, as the
// daily limits), payments and non-payments counted apart, so a chatty group forwarded by a phone
// never crowds out the money that paid no order. Past the bound a report is still answered (with
// why nothing was stored, so the phone stops resending) and counted in its signer's row of the
// day (`xpay report bounds`); the report_bound alert fires while a signer is at its bound.
//
// The signer is who authenticated the report, never text the caller chose: the merchant whose
// AppSecret signed it, the operator's third-account secret, or a client named by its id.
import type { Reporter } from "./clients/reporter.ts";
import type { Gateway } from "./gateway.ts";
import { startOfDay } from "./ids.ts";
import type { NonceClaim, ReportBound, ReportRecord, SettleReportResult } from "./store.ts";

/** Who answers for a report: its client when the route authenticated one, else the secret that signed it. */
export function signerOf(r: Pick<ReportRecord, "pid" | "kind">, client?: { id: number } | null): string {
  if (client) return `client:${client.id}`;
  return r.pid !== null ? `merchant:${r.pid}` : r.kind.startsWith("third") ? "third-account" : `operator:${r.kind}`;
}

/** The signer of a report route's reporter: its keyed client, else the merchant whose AppSecret signed. */
export function reporterSigner(r: Reporter): string {
  return r.client ? `client:${r.client.id}` : `merchant:${r.watcher.pid}`;
}

/** Reads a bound key back: the merchant it concerns (for alerts and `report bounds --pid`). */
export function boundPid(key: string): number | null {
  const m = /^merchant:(\d+):/.exec(key);
  return m ? Number(m[1]) : null;
}

/** The bound this report counts against now, or null: no bound (setting 0, or the operator's own entries). */
export async function unmatchedBound(gw: Gateway, r: Pick<ReportRecord, "pid" | "kind" | "amount">, signer?: string): Promise<ReportBound | null> {
  const max = (await gw.settings()).int("report_unmatched_daily");
  if (max <= 0 || r.kind === "operator") return null;
  return { key: `${signer ?? signerOf(r)}:${r.amount === null ? "message" : "payment"}`, day: startOfDay(gw.clock.now()), max };
}

/** The reason a client reads when its report was counted, not stored. */
export function notStoredReason(reason: string, bound: ReportBound): string {
  return `${reason}; not stored: ${bound.max} unmatched reports of this signer are stored today already (report_unmatched_daily), this one is only counted`;
}

/**
 * Stores a report that is unmatched without asking the matching rule (a message that is not a
 * payment, a push for a pay type the client does not watch), within its signer's daily bound.
 */
export async function insertUnmatched(gw: Gateway, input: ReportRecord & { signer?: string }, nonce?: NonceClaim): Promise<{ id: number | null; duplicate: boolean; replayed?: boolean; reason: string }> {
  const { signer, ...r } = input;
  const bound = await unmatchedBound(gw, r, signer);
  const stored = await gw.store.insertBoundedReport(r, bound, nonce);
  return { ...stored, reason: stored.id === null && bound ? notStoredReason(r.reason, bound) : r.reason };
}

/** A settled report that was counted, not stored, says so in its reason. */
export function boundedResult(result: SettleReportResult, bound: ReportBound | null): SettleReportResult {
  return result.reportId === null && bound ? { ...result, reason: notStoredReason(result.reason, bound) } : result;
}
