// SQLite side of the StatsStore sub-port (src/core/stats/store.ts). The income queries read only
// the two covering indexes of migration 010: paid orders by paid_at (a partial index, written
// when an order is paid, never on create) and every order by created_at. A range of days is a
// range scan of each; no query ever reads the orders table itself.
import type { Database } from "bun:sqlite";
import type { IncomeKey, IncomeQuery, IncomeRow, OutboxGauge, StatsStore } from "../../core/stats/store.ts";

/** The GROUP BY expression of each key over one time column; fixed texts, never caller input. */
function groupExpr(by: IncomeKey, time: "paid_at" | "created_at"): string {
  switch (by) {
    case "total":
      return "''";
    case "quarter":
      return `${time} / 900`;
    case "pay-type":
      return "pay_type";
    case "account":
      return "COALESCE(account_id, '')";
    case "merchant":
      return "pid";
    case "detail":
      return "pay_type || '|' || COALESCE(account_id, '') || '|' || pid";
  }
}

/**
 * The two statements of one income query. INDEXED BY: without ANALYZE statistics the planner
 * prefers any index with an equality on status (the console's) over the time range, and then
 * reads every paid order ever made; these indexes are the plan, so they are named.
 */
export function incomeSql(by: IncomeKey, withPid: boolean): { paid: string; created: string } {
  const pidTerm = withPid ? " AND pid = $pid" : "";
  return {
    paid: `SELECT ${groupExpr(by, "paid_at")} AS k, count(*) AS n, COALESCE(sum(trade_amount), 0) AS amount
           FROM orders INDEXED BY orders_paid_stats
           WHERE status = 2 AND paid_at >= $from AND paid_at < $to${pidTerm} GROUP BY k`,
    created: `SELECT ${groupExpr(by, "created_at")} AS k, count(*) AS n FROM orders INDEXED BY orders_created_stats
              WHERE created_at >= $from AND created_at < $to${pidTerm} GROUP BY k`,
  };
}

export class SqliteStats implements StatsStore {
  private readonly listeners = new Set<(seconds: number) => void>();

  constructor(private readonly db: Database) {}

  async income(q: IncomeQuery): Promise<IncomeRow[]> {
    const sql = incomeSql(q.by, q.pid !== undefined);
    const args = { from: q.from, to: q.to, ...(q.pid === undefined ? {} : { pid: q.pid }) };
    const paid = this.db.query(sql.paid).all(args) as { k: string | number; n: number; amount: number }[];
    const created = this.db.query(sql.created).all(args) as { k: string | number; n: number }[];
    const rows = new Map<string, IncomeRow>();
    const row = (k: string | number) => {
      const key = String(k);
      let r = rows.get(key);
      if (!r) rows.set(key, (r = { key, paidCount: 0, paidAmount: 0, created: 0 }));
      return r;
    };
    for (const p of paid) Object.assign(row(p.k), { paidCount: p.n, paidAmount: p.amount });
    for (const c of created) row(c.k).created = c.n;
    return [...rows.values()];
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
