// Refused reports within fixed bounds (core/refusals.ts): every refusal bumps its counter row, and
// its row replaces the oldest kept one of its source once that source has `perSource` rows, and
// the oldest of all once there are `total`. One short transaction per refusal, whatever the flood.
import type { Database } from "bun:sqlite";
import type { RefusalLimits, RefusalRecord } from "../../core/refusals.ts";
import type { RefusalCount } from "../../core/store.ts";

const OTHER = "(other)";

function count(db: Database, r: RefusalRecord, limits: RefusalLimits): void {
  const key = { s: r.source, r: r.reasonClass, at: r.createdAt };
  const bump = "UPDATE report_refusals SET count = count + 1, last_seen = $at WHERE source = $s AND reason = $r";
  if (db.query(bump).run(key).changes > 0) return;
  const rows = (db.query("SELECT count(*) AS n FROM report_refusals").get() as { n: number }).n;
  // A full table takes no new pair: caller-chosen reasons or addresses must not grow it.
  const k = rows < limits.counterRows ? key : { s: OTHER, r: OTHER, at: r.createdAt };
  db.query(
    `INSERT INTO report_refusals (source, reason, count, first_seen, last_seen) VALUES ($s, $r, 1, $at, $at)
     ON CONFLICT (source, reason) DO UPDATE SET count = count + 1, last_seen = excluded.last_seen`,
  ).run(k);
}

function keepBounded(db: Database, source: string, limits: RefusalLimits): void {
  // Both queries read the partial index of refused rows only, never the rest of the table.
  db.query(
    `DELETE FROM reports WHERE id IN (SELECT id FROM reports WHERE outcome = 'rejected' AND source = $s
     ORDER BY id DESC LIMIT -1 OFFSET $keep)`,
  ).run({ s: source, keep: limits.perSource - 1 });
  const total = (db.query("SELECT count(*) AS n FROM reports WHERE outcome = 'rejected'").get() as { n: number }).n;
  if (total >= limits.total) {
    db.query(
      `DELETE FROM reports WHERE id IN (SELECT id FROM reports WHERE outcome = 'rejected' ORDER BY created_at, id LIMIT $n)`,
    ).run({ n: total - limits.total + 1 });
  }
}

export function insertRefusal(db: Database, r: RefusalRecord, limits: RefusalLimits): void {
  db.transaction(() => {
    count(db, r, limits);
    keepBounded(db, r.source, limits);
    db.query(
      `INSERT INTO reports (kind, pid, client, source, raw, amount, pay_type, channel_code, dedupe_key, outcome, reason, trade_no, created_at)
       VALUES ($kind, $pid, $client, $source, $raw, NULL, $pay_type, $code, NULL, 'rejected', $reason, NULL, $at)`,
    ).run({ kind: r.kind, pid: r.pid, client: r.client, source: r.source, raw: r.raw, pay_type: r.payType, code: r.channelCode, reason: r.reason, at: r.createdAt });
  }).immediate();
}

/** The counters, largest first: every refusal, including those whose row is no longer kept. */
export function listRefusalCounts(db: Database, limit: number): RefusalCount[] {
  const rows = db
    .query("SELECT source, reason, count, first_seen, last_seen FROM report_refusals ORDER BY count DESC, last_seen DESC LIMIT $limit")
    .all({ limit }) as { source: string; reason: string; count: number; first_seen: number; last_seen: number }[];
  return rows.map((r) => ({ source: r.source, reason: r.reason, count: r.count, firstSeen: r.first_seen, lastSeen: r.last_seen }));
}
