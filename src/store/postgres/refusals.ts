// Refused reports within fixed bounds (core/refusals.ts), as on SQLite: every refusal bumps its
// counter, its row replaces the oldest of its source past `perSource` and the oldest of all past
// `total`. The bookkeeping of all instances takes one advisory lock, so the bounds hold.
import type { SQL } from "bun";
import type { RefusalLimits, RefusalRecord } from "../../core/refusals.ts";
import type { RefusalCount } from "../../core/store.ts";
import { lock, Lock, unit } from "./tx.ts";

const OTHER = "(other)";

async function count(tx: SQL, r: RefusalRecord, limits: RefusalLimits): Promise<void> {
  const bumped = await tx`UPDATE report_refusals SET count = count + 1, last_seen = ${r.createdAt} WHERE source = ${r.source} AND reason = ${r.reasonClass}`;
  if (bumped.count > 0) return;
  const [{ n }] = await tx`SELECT count(*) AS n FROM report_refusals`;
  // A full table takes no new pair: caller-chosen reasons or addresses must not grow it.
  const [source, reason] = Number(n) < limits.counterRows ? [r.source, r.reasonClass] : [OTHER, OTHER];
  await tx`
    INSERT INTO report_refusals (source, reason, count, first_seen, last_seen) VALUES (${source}, ${reason}, 1, ${r.createdAt}, ${r.createdAt})
    ON CONFLICT (source, reason) DO UPDATE SET count = report_refusals.count + 1, last_seen = excluded.last_seen`;
}

async function keepBounded(tx: SQL, source: string, limits: RefusalLimits): Promise<void> {
  await tx`
    DELETE FROM reports WHERE id IN (SELECT id FROM reports WHERE outcome = 'rejected' AND source = ${source}
    ORDER BY id DESC OFFSET ${limits.perSource - 1})`;
  const [{ n }] = await tx`SELECT count(*) AS n FROM reports WHERE outcome = 'rejected'`;
  const total = Number(n);
  if (total >= limits.total) {
    await tx`DELETE FROM reports WHERE id IN (SELECT id FROM reports WHERE outcome = 'rejected' ORDER BY created_at, id LIMIT ${total - limits.total + 1})`;
  }
}

export function insertRefusal(sql: SQL, r: RefusalRecord, limits: RefusalLimits): Promise<void> {
  return unit(sql, async (tx) => {
    await lock(tx, Lock.refusals);
    await count(tx, r, limits);
    await keepBounded(tx, r.source, limits);
    await tx`
      INSERT INTO reports (kind, pid, client, source, raw, amount, pay_type, channel_code, dedupe_key, outcome, reason, trade_no, created_at)
      VALUES (${r.kind}, ${r.pid}, ${r.client}, ${r.source}, ${r.raw}, NULL, ${r.payType}, ${r.channelCode}, NULL, 'rejected', ${r.reason}, NULL, ${r.createdAt})`;
  });
}

/** The counters, largest first: every refusal, including those whose row is no longer kept. */
export async function listRefusalCounts(sql: SQL, limit: number): Promise<RefusalCount[]> {
  const rows = (await sql`
    SELECT source, reason, count, first_seen, last_seen FROM report_refusals ORDER BY count DESC, last_seen DESC LIMIT ${limit}`) as Record<string, unknown>[];
  return rows.map((r) => ({ source: String(r.source), reason: String(r.reason), count: Number(r.count), firstSeen: Number(r.first_seen), lastSeen: Number(r.last_seen) }));
}
