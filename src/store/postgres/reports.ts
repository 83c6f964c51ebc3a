// Stored reports on PostgreSQL. A report with a dedupe key takes that key's advisory lock first, so
// two copies arriving at two instances are stored one after the other and the second reads as a
// duplicate (the partial unique index reports_dedupe would refuse it anyway).
import type { SQL } from "bun";
import type { NonceClaim, ReportBound, ReportRecord, StoredReport } from "../../core/store.ts";
import { DUPLICATE } from "../report-reasons.ts";
import { toReport } from "../rows.ts";
import { claimNonce } from "./keyed-clients.ts";
import { takeBound } from "./report-bounds.ts";
import { lock, Lock, unit } from "./tx.ts";


/**
 * Takes the dedupe key's lock (held until commit) and says whether the key was stored already. The
 * same statement reads the directory's version, after the lock and in this transaction: the report
 * settlement takes its accounts from the directory kept at that version (report-match.ts) instead
 * of reading and mapping every account for every report, in no extra round trip. Without a key,
 * nothing is read (version undefined).
 */
export async function claimKey(tx: SQL, key: string | null): Promise<{ duplicate: boolean; version?: number | null }> {
  if (key === null) return { duplicate: false };
  // Sent together, one round trip: the server runs them in order, and the check, a statement of its
  // own, takes its snapshot when it starts, after the lock is granted (in one statement the snapshot
  // would come first, and a copy waiting on the lock would not see the report it waited for).
  const [, [row]] = await Promise.all([
    lock(tx, Lock.reportKey, key),
    tx`SELECT EXISTS (SELECT 1 FROM reports WHERE dedupe_key = ${key} AND outcome IN ('matched', 'unmatched')) AS dup,
              (SELECT v FROM directory_version) AS v`,
  ]);
  return { duplicate: row.dup === true, version: row.v === null ? null : Number(row.v) };
}

/** The report's INSERT, not sent yet (a query is sent when first awaited): its answer is the new id. */
export function reportInsert(tx: SQL, r: ReportRecord, duplicate: boolean): PromiseLike<number> {
  const q = tx`
    INSERT INTO reports (kind, pid, client, raw, amount, pay_type, channel_code, dedupe_key, outcome, reason, reason_code, reason_args, trade_no, created_at)
    VALUES (${r.kind}, ${r.pid}, ${r.client}, ${r.raw}, ${r.amount}, ${r.payType}, ${r.channelCode}, ${r.dedupeKey},
            ${duplicate ? "duplicate" : r.outcome}, ${duplicate ? DUPLICATE : r.reason}, ${duplicate ? "duplicate" : (r.reasonCode ?? null)},
            ${duplicate ? "{}" : (r.reasonArgs ?? null)}, ${duplicate ? null : r.tradeNo}, ${r.createdAt})
    RETURNING id`;
  return { then: (ok, fail) => q.then((rows) => Number(rows[0].id)).then(ok, fail) };
}

/** Inside a transaction the caller holds, after claimKey. An unmatched report past `bound`: counted, not stored (null). */
export async function insertReportIn(tx: SQL, r: ReportRecord, duplicate: boolean, bound?: ReportBound | null): Promise<number | null> {
  if (!duplicate && r.outcome === "unmatched" && bound && !(await takeBound(tx, bound, r.createdAt))) return null;
  return reportInsert(tx, r, duplicate);
}

/**
 * Stores a report. A second report with the same dedupe key is stored as a duplicate instead; with
 * `nonce`, a timestamp the client used before stores nothing at all; an unmatched one past `bound`
 * is only counted (id null).
 */
export function insertReport(sql: SQL, r: ReportRecord, o: { nonce?: NonceClaim; bound?: ReportBound | null } = {}): Promise<{ id: number | null; duplicate: boolean; replayed?: boolean }> {
  return unit(sql, async (tx) => {
    if (o.nonce && !(await claimNonce(tx, o.nonce))) return { id: 0, duplicate: true, replayed: true };
    const { duplicate } = await claimKey(tx, r.dedupeKey);
    return { id: await insertReportIn(tx, r, duplicate, o.bound), duplicate };
  });
}

export async function getReport(sql: SQL, id: number, o: { forUpdate?: boolean } = {}): Promise<StoredReport | null> {
  const rows = o.forUpdate ? await sql`SELECT * FROM reports WHERE id = ${id} FOR UPDATE` : await sql`SELECT * FROM reports WHERE id = ${id}`;
  return rows.length ? toReport(rows[0]) : null;
}

export async function listReports(sql: SQL, f: { pid?: number; outcome?: string; limit?: number }): Promise<StoredReport[]> {
  const rows = await sql`
    SELECT * FROM reports WHERE (${f.pid ?? null}::bigint IS NULL OR pid = ${f.pid ?? null}) AND (${f.outcome ?? null}::text IS NULL OR outcome = ${f.outcome ?? null})
    ORDER BY id DESC LIMIT ${f.limit ?? 100}`;
  return rows.map(toReport);
}
