// Refused reports (unknown merchant, bad signature, unreadable body...) are what an outsider can
// send without any secret, so what they cost the database must not depend on how many are sent.
// Each refusal is counted in a per-source counter row, and only the last few per source (and a
// fixed number in all) are kept as rows with a short excerpt of the raw body: enough for an
// operator to see why a phone's reports go nowhere, never enough to fill the disk.
import type { Gateway } from "./gateway.ts";
import type { ReportRecord } from "./store.ts";

export interface RefusalLimits {
  /** Bytes of the raw request kept with a refused report (UTF-8, cut on a character boundary). */
  rawBytes: number;
  /** Refused rows kept per source; the oldest of that source goes when one more arrives. */
  perSource: number;
  /** Refused rows kept in all, whatever the number of sources (addresses are cheap in IPv6). */
  total: number;
  /** Counter rows (source, reason); past this, new pairs are counted in one "(other)" row. */
  counterRows: number;
}

export const REFUSAL_LIMITS: RefusalLimits = { rawBytes: 512, perSource: 20, total: 1000, counterRows: 1000 };

export type Refusal = Omit<ReportRecord, "outcome" | "tradeNo" | "createdAt" | "dedupeKey" | "amount"> & {
  /** The client address when the edge knows it, else the claimed merchant (`pid 1001`). */
  source: string;
};

/** A stored refused report, clipped: every field of it may be the sender's text. */
export interface RefusalRecord extends ReportRecord {
  source: string;
  /** The counter key: the reason without the caller's details (pid, parameter text, numbers). */
  reasonClass: string;
}

export function clipBytes(s: string, max: number): string {
  const bytes = new TextEncoder().encode(s);
  if (bytes.length <= max) return s;
  let end = max;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // never split a multi-byte character
  return new TextDecoder().decode(bytes.subarray(0, end));
}

/** "unknown merchant (pid 123)" and "... (pid abc)" count as one reason; digits never split one. */
export function refusalClass(reason: string): string {
  const head = reason.split(/[:(]/)[0]!.replace(/\d+/g, "N").trim();
  return clipBytes(head || "refused", 80);
}

export function refusalRecord(r: Refusal, now: number, limits: RefusalLimits = REFUSAL_LIMITS): RefusalRecord {
  return {
    kind: r.kind, pid: r.pid, amount: null, dedupeKey: null, tradeNo: null, outcome: "rejected", createdAt: now,
    source: clipBytes(r.source || (r.pid !== null ? `pid ${r.pid}` : "unknown"), 64),
    client: clipBytes(r.client, 64), raw: clipBytes(r.raw, limits.rawBytes),
    payType: clipBytes(r.payType, 32), channelCode: clipBytes(r.channelCode, 64),
    reason: clipBytes(r.reason, 200), reasonClass: refusalClass(r.reason),
  };
}

/** Stores a refused report within the bounds above. */
export async function recordRefusal(gw: Gateway, r: Refusal): Promise<void> {
  await gw.store.insertRefusal(refusalRecord(r, gw.clock.now()), REFUSAL_LIMITS);
  gw.metrics.report(r.kind, "rejected");
}
