// The two reasons a store words itself, for both adapters: a second copy of a stored report (a
// duplicate, told by its dedupe key inside the write unit) and a request whose timestamp was used
// before. Every other reason arrives from the core already coded (core/reasons.ts); the English of
// "duplicate" there is this text (test/core/reasons.test.ts holds them equal).
import type { Reason } from "../core/reasons.ts";
import type { ReportRecord } from "../core/store.ts";

export const DUPLICATE = "duplicate of an earlier report";
export const REPLAYED = "this request was accepted before (its timestamp is used); nothing stored";

export const DUPLICATE_REASON: Reason = { code: "duplicate", args: {}, text: DUPLICATE };

/** The report's reason columns from a coded reason. */
export function reasonColumns(r: Reason): Pick<ReportRecord, "reason" | "reasonCode" | "reasonArgs"> {
  return { reason: r.text, reasonCode: r.code, reasonArgs: JSON.stringify(r.args) };
}
