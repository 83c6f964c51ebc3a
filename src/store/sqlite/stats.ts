// SQLite side of the StatsStore sub-port (src/core/stats/store.ts). Every figure is a sum over the
// rollup (migration 025: one row per UTC quarter hour and (merchant, account, pay type), kept by
// triggers in the transaction of each order write), never a count over orders: its size follows
// time and accounts, not the number of orders. Each unit reads one snapshot (a read transaction,
// which never waits for the writer in WAL mode).
import type { Database } from "bun:sqlite";
import type { AccountIncome, IncomeCounts, OutboxGauge, StatsStore } from "../../core/stats/store.ts";
import { rollupEdge } from "../../core/stats/store.ts";

const SUMS = "COALESCE(sum(paid_count), 0) AS paid, COALESCE(sum(paid_amount), 0) AS amount, COALESCE(sum(created), 0) AS created";

/** The statements of incomeByRange; exported for the plan test. */
export const rangeSql = (withPid: boolean) =>
  `SELECT ${SUMS} FROM order_rollup WHERE bucket >= $from AND bucket < $to${withPid ? " AND pid = $pid" : ""}`;

/** The statement of incomeByAccount; exported for the plan test. */
export const accountSql = (withPid: boolean) =>
  `SELECT account_id, pid, pay_type, ${SUMS} FROM order_rollup WHERE bucket >= $from AND bucket < $to${withPid ? " AND pid = $pid" : ""}
   GROUP BY account_id, pid, pay_type HAVING sum(created) <> 0 OR sum(paid_count) <> 0`;

type Sums = { paid: number; amount: number; created: number };

export class SqliteStats implements StatsStore {
  private readonly listeners = new Set<(seconds: number) => void>();

  constructor(private readonly db: Database) {}

  async incomeByRange(q: { edges: number[]; pid?: number }): Promise<IncomeCounts[]> {
    const sum = this.db.query(rangeSql(q.pid !== undefined));
    const pid: Record<string, number> = q.pid === undefined ? {} : { pid: q.pid };
    return this.db.transaction(() => {
      const out: IncomeCounts[] = [];
      for (let i = 0; i + 1 < q.edges.length; i++) {
        const s = sum.get({ from: rollupEdge(q.edges[i]!), to: rollupEdge(q.edges[i + 1]!), ...pid }) as Sums;
        out.push({ paidCount: s.paid, paidAmount: s.amount, created: s.created });
      }
      return out;
    })();
  }

  async incomeByAccount(q: { from: number; to: number; pid?: number }): Promise<AccountIncome[]> {
    const bind: Record<string, number> = { from: rollupEdge(q.from), to: rollupEdge(q.to), ...(q.pid === undefined ? {} : { pid: q.pid }) };
    const rows = this.db.query(accountSql(q.pid !== undefined)).all(bind) as (Sums & { account_id: number; pid: number; pay_type: string })[];
    return rows.map((r) => ({
      accountId: r.account_id === 0 ? null : r.account_id, pid: r.pid, payType: r.pay_type, paidCount: r.paid, paidAmount: r.amount, created: r.created,
    }));
  }

  async outbox(nowMs: number): Promise<OutboxGauge> {
    // Both read the (status, next_attempt_at) index of the worker's claim.
    const pending = (this.db.query("SELECT count(*) AS n FROM notifications WHERE status = 'pending'").get() as { n: number }).n;
    const due = this.db
      .query("SELECT count(*) AS n, min(next_attempt_at) AS oldest FROM notifications WHERE status = 'pending' AND next_attempt_at <= $now")
      .get({ now: nowMs }) as { n: number; oldest: number | null };
    return { pending, due: due.n, oldestDueMs: due.oldest };
  }

  async clientsOnline(since: number): Promise<number> {
    return (this.db.query("SELECT count(*) AS n FROM clients WHERE last_seen_at >= $since").get({ since }) as { n: number }).n;
  }

  observeWrites(listener: (seconds: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called by the store after each timed write transaction. */
  wrote(seconds: number): void {
    for (const l of this.listeners) l(seconds);
  }
}
