// Store.stats on PostgreSQL (core/stats/store.ts): the figures of ../sqlite/stats.ts, each unit one
// statement over the rollup of migration 025 (one row per UTC quarter hour and (merchant, account,
// pay type), kept by a trigger in each order write's transaction), never over orders.
import type { SQL } from "bun";
import type { AccountIncome, IncomeCounts, OutboxGauge, StatsStore } from "../../core/stats/store.ts";
import { rollupEdge } from "../../core/stats/store.ts";

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);

export class PostgresStats implements StatsStore {
  private readonly listeners = new Set<(seconds: number) => void>();

  constructor(private readonly db: () => Promise<SQL>) {}

  async incomeByRange(q: { edges: number[]; pid?: number }): Promise<IncomeCounts[]> {
    if (q.edges.length < 2) return [];
    const pid = q.pid ?? null;
    const edges = q.edges.map(rollupEdge);
    // Every range in one round trip: a lateral sum per range, each a primary-key range.
    const rows = await (await this.db())`
      SELECT r.i, s.paid, s.amount, s.created
      FROM (SELECT i, (${edges}::bigint[])[i] AS f, (${edges}::bigint[])[i + 1] AS t FROM generate_series(1, ${edges.length - 1}::int) AS i) r
      CROSS JOIN LATERAL (SELECT COALESCE(sum(paid_count), 0) AS paid, COALESCE(sum(paid_amount), 0) AS amount, COALESCE(sum(created), 0) AS created
        FROM order_rollup WHERE bucket >= r.f AND bucket < r.t AND (${pid}::bigint IS NULL OR pid = ${pid}::bigint)) s
      ORDER BY r.i`;
    return (rows as Row[]).map((r) => ({ paidCount: num(r.paid), paidAmount: num(r.amount), created: num(r.created) }));
  }

  async incomeByAccount(q: { from: number; to: number; pid?: number }): Promise<AccountIncome[]> {
    const pid = q.pid ?? null;
    const rows = (await (await this.db())`
      SELECT account_id, pid, pay_type, sum(paid_count) AS paid, sum(paid_amount) AS amount, sum(created) AS created FROM order_rollup
      WHERE bucket >= ${rollupEdge(q.from)} AND bucket < ${rollupEdge(q.to)} AND (${pid}::bigint IS NULL OR pid = ${pid}::bigint)
      GROUP BY account_id, pid, pay_type HAVING sum(created) <> 0 OR sum(paid_count) <> 0
      ORDER BY 2, 1, 3`) as Row[];
    return rows.map((r) => ({
      accountId: num(r.account_id) === 0 ? null : num(r.account_id), pid: num(r.pid), payType: String(r.pay_type ?? ""),
      paidCount: num(r.paid), paidAmount: num(r.amount), created: num(r.created),
    }));
  }

  async outbox(nowMs: number): Promise<OutboxGauge> {
    const [r] = (await (await this.db())`
      SELECT count(*) AS pending, count(*) FILTER (WHERE next_attempt_at <= ${nowMs}) AS due,
             min(next_attempt_at) FILTER (WHERE next_attempt_at <= ${nowMs}) AS oldest
      FROM notifications WHERE status = 'pending'`) as Row[];
    return { pending: num(r!.pending), due: num(r!.due), oldestDueMs: r!.oldest === null ? null : num(r!.oldest) };
  }

  async clientsOnline(since: number): Promise<number> {
    return num(((await (await this.db())`SELECT count(*) AS n FROM clients WHERE last_seen_at >= ${since}`) as Row[])[0]!.n);
  }

  observeWrites(listener: (seconds: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Times a write unit (the store's creates and payments: there is no group commit here) for the
   * listeners, once it committed; with none, the unit runs untimed.
   */
  async timed<T>(work: () => Promise<T>): Promise<T> {
    if (this.listeners.size === 0) return work();
    const started = performance.now();
    const out = await work();
    const seconds = (performance.now() - started) / 1000;
    for (const l of this.listeners) l(seconds);
    return out;
  }
}
