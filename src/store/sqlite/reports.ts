import type { Database } from "bun:sqlite";
import type { NonceClaim, ReportBound, ReportRecord, StoredReport } from "../../core/store.ts";
import { claimNonce } from "./keyed-clients.ts";
import { takeBound } from "./report-bounds.ts";
import { DUPLICATE } from "../report-reasons.ts";
import { toReport } from "../rows.ts";
import { prepared } from "./statement.ts";
import { joined } from "./transaction.ts";
import { storedTradeNoOrNull } from "./order-keys.ts";

const SEEN = prepared("SELECT 1 FROM reports WHERE dedupe_key = $k AND outcome IN ('matched', 'unmatched')");
const INSERT = prepared(
  `INSERT INTO reports (kind, pid, client, raw, amount, pay_type, channel_code, dedupe_key, outcome, reason, reason_code, reason_args, trade_no, created_at)
   VALUES ($kind, $pid, $client, $raw, $amount, $pay_type, $code, $key, $outcome, $reason, $rcode, $rargs, $trade_no, $at) RETURNING id`,
);

/** A report with this dedupe key is stored already (a payment's report, matched or not). */
export function dedupeSeen(db: Database, key: string | null): boolean {
  return key !== null && SEEN(db).get({ k: key }) !== null;
}

/**
 * Stores a report. A second report with the same dedupe key is stored as a duplicate instead; with
 * `nonce`, a timestamp the client used before stores nothing at all; an unmatched one past `bound`
 * is only counted (id null). `deduped`: the caller read the dedupe key in this same transaction
 * (a report's settlement) and words the outcome itself, so it is not read again. Inside a
 * settlement it is a step of its unit (joined).
 */
export function insertReport(db: Database, r: ReportRecord, o: { nonce?: NonceClaim; bound?: ReportBound | null; deduped?: boolean } = {}): { id: number | null; duplicate: boolean; replayed?: boolean } {
  return joined(db, () => {
    if (o.nonce && !claimNonce(db, o.nonce)) return { id: 0, duplicate: true, replayed: true };
    let outcome = r.outcome;
    let duplicate = false;
    if (!o.deduped && dedupeSeen(db, r.dedupeKey)) {
      outcome = "duplicate";
      duplicate = true;
    }
    if (outcome === "unmatched" && o.bound && !takeBound(db, o.bound, r.createdAt)) return { id: null, duplicate };
    const row = INSERT(db).get({
      kind: r.kind, pid: r.pid, client: r.client, raw: r.raw, amount: r.amount, pay_type: r.payType, code: r.channelCode,
      key: r.dedupeKey, outcome, reason: duplicate ? DUPLICATE : r.reason, rcode: duplicate ? "duplicate" : (r.reasonCode ?? null),
      rargs: duplicate ? "{}" : (r.reasonArgs ?? null), trade_no: duplicate ? null : storedTradeNoOrNull(db, r.tradeNo), at: r.createdAt,
    }) as { id: number };
    return { id: row.id, duplicate };
  });
}

export function listReports(db: Database, f: { pid?: number; outcome?: string; limit?: number }): StoredReport[] {
  const rows = db
    .query(
      `SELECT * FROM reports WHERE ($pid IS NULL OR pid = $pid) AND ($outcome IS NULL OR outcome = $outcome)
       ORDER BY id DESC LIMIT $limit`,
    )
    .all({ pid: f.pid ?? null, outcome: f.outcome ?? null, limit: f.limit ?? 100 }) as Record<string, unknown>[];
  return rows.map(toReport);
}
