// Store.stats on PostgreSQL (core/stats/store.ts): the figures of ../sqlite/stats.ts, each unit one
// statement (one snapshot, one round trip). A range is read in core/stats/rollup-pieces.ts's pieces:
// whole UTC days and hours from the rollup of migration 025 plus its pending rows, which every order
// write's transaction appends and a fold moves into it once a second (migration 039; one snapshot
// sees a fold whole or not at all), the minutes at its ends from orders by their created_at and
// paid_at indexes. A pending row's bucket is its hour, so it falls in a whole day's piece exactly
// when its day does.
import type { SQL } from "bun";
import { rollupPieces } from "../../core/stats/rollup-pieces.ts";
import type { AccountIncome, IncomeCounts, OutboxGauge, StatsStore } from "../../core/stats/store.ts";

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);

/** Every piece of the ranges as parallel arrays (range index, level, from, to), for unnest(). */
function pieceArrays(ranges: [number, number][]) {
  const a = { i: [] as number[], lvl: [] as string[], f: [] as number[], t: [] as number[] };
  ranges.forEach(([from, to], i) => {
    const p = rollupPieces(from, to);
    for (const [lvl, spans] of [["day", p.days], ["hour", p.hours], ["orders", p.orders]] as const) {
      for (const [f, t] of spans) {
        a.i.push(i);
        a.lvl.push(lvl);
        a.f.push(f);
        a.t.push(t);
      }
    }
  });
  return a;
}

export class PostgresStats implements StatsStore {
  private readonly listeners = new Set<(seconds: number) => void>();

  constructor(private readonly db: () => Promise<SQL>) {}

  async incomeByRange(q: { edges: number[]; pid?: number }): Promise<IncomeCounts[]> {
    if (q.edges.length < 2) return [];
    const pid = q.pid ?? null;
    const ranges = q.edges.slice(1).map((to, i): [number, number] => [q.edges[i]!, to]);
    const a = pieceArrays(ranges);
    const out = ranges.map(() => ({ paidCount: 0, paidAmount: 0, created: 0 }));
    if (a.i.length === 0) return out;
    // Each piece reads only its own level: the others' scans stop at their one-time filter.
    const rows = (await (await this.db())`
      SELECT p.i, COALESCE(sum(x.paid), 0) AS paid, COALESCE(sum(x.amount), 0) AS amount, COALESCE(sum(x.created), 0) AS created
      FROM unnest(${a.i}::int[], ${a.lvl}::text[], ${a.f}::bigint[], ${a.t}::bigint[]) AS p(i, lvl, f, t)
      CROSS JOIN LATERAL (
        SELECT sum(paid_count) AS paid, sum(paid_amount) AS amount, sum(created) AS created FROM order_rollup_day
          WHERE p.lvl = 'day' AND bucket >= p.f AND bucket < p.t AND (${pid}::bigint IS NULL OR pid = ${pid}::bigint)
        UNION ALL
        SELECT sum(paid_count), sum(paid_amount), sum(created) FROM order_rollup_hour
          WHERE p.lvl = 'hour' AND bucket >= p.f AND bucket < p.t AND (${pid}::bigint IS NULL OR pid = ${pid}::bigint)
        UNION ALL
        SELECT sum(paid_count), sum(paid_amount), sum(created) FROM order_rollup_pending
          WHERE p.lvl <> 'orders' AND bucket >= p.f AND bucket < p.t AND (${pid}::bigint IS NULL OR pid = ${pid}::bigint)
        UNION ALL
        SELECT 0, 0, count(*) FROM orders
          WHERE p.lvl = 'orders' AND created_at >= p.f AND created_at < p.t AND (${pid}::bigint IS NULL OR pid = ${pid}::bigint)
        UNION ALL
        SELECT count(*), sum(trade_amount), 0 FROM orders
          WHERE p.lvl = 'orders' AND status = 2 AND paid_at >= p.f AND paid_at < p.t AND (${pid}::bigint IS NULL OR pid = ${pid}::bigint)
      ) x
      GROUP BY p.i`) as Row[];
    for (const r of rows) out[num(r.i)] = { paidCount: num(r.paid), paidAmount: num(r.amount), created: num(r.created) };
    return out;
  }

  async incomeByAccount(q: { from: number; to: number; pid?: number }): Promise<AccountIncome[]> {
    const pid = q.pid ?? null;
    const a = pieceArrays([[q.from, q.to]]);
    if (a.i.length === 0) return [];
    const rows = (await (await this.db())`
      WITH p AS (SELECT * FROM unnest(${a.lvl}::text[], ${a.f}::bigint[], ${a.t}::bigint[]) AS p(lvl, f, t))
      SELECT account_id, pid, pay_type, sum(paid) AS paid, sum(amount) AS amount, sum(created) AS created FROM (
        SELECT d.account_id, d.pid, d.pay_type, d.paid_count AS paid, d.paid_amount AS amount, d.created
          FROM p JOIN order_rollup_day d ON p.lvl = 'day' AND d.bucket >= p.f AND d.bucket < p.t
        UNION ALL
        SELECT h.account_id, h.pid, h.pay_type, h.paid_count, h.paid_amount, h.created
          FROM p JOIN order_rollup_hour h ON p.lvl = 'hour' AND h.bucket >= p.f AND h.bucket < p.t
        UNION ALL
        SELECT q.account_id, q.pid, q.pay_type, q.paid_count, q.paid_amount, q.created
          FROM p JOIN order_rollup_pending q ON p.lvl <> 'orders' AND q.bucket >= p.f AND q.bucket < p.t
        UNION ALL
        SELECT COALESCE(o.account_id, 0), o.pid, o.pay_type, 0, 0, 1
          FROM p JOIN orders o ON p.lvl = 'orders' AND o.created_at >= p.f AND o.created_at < p.t
        UNION ALL
        SELECT COALESCE(o.account_id, 0), o.pid, o.pay_type, 1, o.trade_amount, 0
          FROM p JOIN orders o ON p.lvl = 'orders' AND o.status = 2 AND o.paid_at >= p.f AND o.paid_at < p.t
      ) x
      WHERE ${pid}::bigint IS NULL OR pid = ${pid}::bigint
      GROUP BY account_id, pid, pay_type HAVING sum(created) <> 0 OR sum(paid) <> 0
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
