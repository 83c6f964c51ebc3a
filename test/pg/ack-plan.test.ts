// The batched acknowledgement on PostgreSQL (acks.ts) finds its outbox rows by their keys. Joined
// only to the attempts' records, whose count the planner cannot know, it read the whole outbox
// (a sequential scan into a hash) for every batch: a cost that grows with the table, 1.5 ms a batch
// at 3 000 rows. Counted here by PostgreSQL's own statistics of the table's sequential scans.
import { expect, test } from "bun:test";
import type { SQL } from "bun";
import { recordAttempts } from "../../src/store/postgres/acks.ts";
import { account, create, merchant, payUnit, T0 } from "../store-contract/harness.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";
import { onNewDatabase } from "./new-database.ts";

const ROWS = 3_000;

/** The outbox's sequential scans so far, this session's own counts flushed first. */
async function seqScans(sql: SQL): Promise<number> {
  await sql`SELECT pg_stat_force_next_flush()`; // flushed when the session is next idle, before the read below
  const [row] = await sql`SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'notifications'`;
  return Number(row.seq_scan);
}

withPostgres(() => {
  const cluster = clusterPerFile();

  test(`a batch of acknowledgements reads its rows by key, not the whole outbox of ${ROWS} rows`, async () => {
    await onNewDatabase(cluster, "ack_plan", { max: 4 }, async (store, sql) => {
      await merchant(store);
      await account(store);
      const orders = await Promise.all(Array.from({ length: ROWS }, (_, i) => create(store, { amount: 100_000 + i * 100 })));
      await Promise.all(orders.map((o) => store.payOrder(payUnit(o.tradeNo, T0 + 10))));
      await sql`ANALYZE notifications`;
      const ids: number[] = (await sql`SELECT id FROM notifications ORDER BY id DESC LIMIT 8`).map((r: { id: unknown }) => Number(r.id));
      expect(ids.length).toBe(8);
      const at = (T0 + 20) * 1000;
      const before = await seqScans(sql);
      await recordAttempts(sql, ids.map((id) => ({
        id, o: { attempt: { attemptedAt: at, durationMs: 1, httpStatus: 200, body: "success", error: "", acknowledged: true }, status: "delivered" as const, nextAttemptAt: at },
      })));
      expect(await seqScans(sql)).toBe(before);
      // And what it wrote: the rows delivered, the merchant's delivery row counted.
      const [n] = await sql`SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered, sum(attempts)::int AS attempts FROM notifications`;
      expect(n).toEqual({ delivered: 8, attempts: 8 });
      expect(Number((await sql`SELECT delivered FROM merchant_delivery WHERE pid = 1001`)[0].delivered)).toBe(8);
    });
  }, 120_000);
});
