// SQLite side of the StatsStore sub-port (src/core/stats/store.ts). Every figure is a count (or
// sum) over one index range, with no GROUP BY over the range's rows: sorting half a million rows
// for a GROUP BY took 100-250 ms, counting them in an index ~15 ms. So a day or an hour is its own
// range (the core gives the edges), and a breakdown is one range per (account, merchant) pair in
// an index that starts with them (migration 010). Each unit reads one snapshot (a read
// transaction, which never waits for the writer in WAL mode).
import type { Database } from "bun:sqlite";
import type { AccountIncome, IncomeCounts, OutboxGauge, StatsStore } from "../../core/stats/store.ts";

// INDEXED BY: without ANALYZE statistics the planner prefers any index with an equality on status
// over the time range, and would then read every paid order ever made.
const PAID_IN_RANGE = `SELECT count(*) AS n, COALESCE(sum(trade_amount), 0) AS amount FROM orders INDEXED BY orders_paid_stats
  WHERE status = 2 AND paid_at >= $from AND paid_at < $to`;
const CREATED_IN_RANGE = "SELECT count(*) AS n FROM orders INDEXED BY orders_created_stats WHERE created_at >= $from AND created_at < $to";

/** The statements of incomeByRange; exported for the plan test. */
export const rangeSql = (withPid: boolean) => {
  const pid = withPid ? " AND pid = $pid" : "";
  return { paid: PAID_IN_RANGE + pid, created: CREATED_IN_RANGE + pid };
};

/** The statements of incomeByAccount; exported for the plan test. */
export const accountSql = {
  paid: `SELECT count(*) AS n, COALESCE(sum(trade_amount), 0) AS amount FROM orders INDEXED BY orders_account_paid
    WHERE status = 2 AND account_id = $a AND pid = $pid AND paid_at >= $from AND paid_at < $to`,
  created: `SELECT count(*) AS n FROM orders INDEXED BY orders_account_created
    WHERE account_id = $a AND pid = $pid AND created_at >= $from AND created_at < $to`,
  // Orders without an account are never paid; their pay type is their own ('' until picked).
  noAccount: `SELECT pay_type, count(*) AS n FROM orders INDEXED BY orders_account_created
    WHERE account_id IS NULL AND pid = $pid AND created_at >= $from AND created_at < $to GROUP BY pay_type`,
};

export class SqliteStats implements StatsStore {
  private readonly listeners = new Set<(seconds: number) => void>();

  constructor(private readonly db: Database) {}

  async incomeByRange(q: { edges: number[]; pid?: number }): Promise<IncomeCounts[]> {
    const sql = rangeSql(q.pid !== undefined);
    const paid = this.db.query(sql.paid);
    const created = this.db.query(sql.created);
    const pid: Record<string, number> = q.pid === undefined ? {} : { pid: q.pid };
    return this.db.transaction(() => {
      const out: IncomeCounts[] = [];
      for (let i = 0; i + 1 < q.edges.length; i++) {
        const range: Record<string, number> = { from: q.edges[i]!, to: q.edges[i + 1]!, ...pid };
        const p = paid.get(range) as { n: number; amount: number };
        out.push({ paidCount: p.n, paidAmount: p.amount, created: (created.get(range) as { n: number }).n });
      }
      return out;
    })();
  }

  async incomeByAccount(q: { from: number; to: number; pid?: number }): Promise<AccountIncome[]> {
    const paid = this.db.query(accountSql.paid);
    const created = this.db.query(accountSql.created);
    const noAccount = this.db.query(accountSql.noAccount);
    return this.db.transaction(() => {
      // Every order's account and merchant exist (foreign keys; an account an order used cannot be
      // removed), so these pairs cover every order; pairs with no order are left out.
      const accounts = this.db.query("SELECT id, pay_type FROM channel_accounts").all() as { id: number; pay_type: string }[];
      const pids = q.pid !== undefined ? [q.pid] : (this.db.query("SELECT pid FROM merchants").all() as { pid: number }[]).map((m) => m.pid);
      const out: AccountIncome[] = [];
      for (const pid of pids) {
        const range = { from: q.from, to: q.to, pid };
        for (const a of accounts) {
          const c = (created.get({ ...range, a: a.id }) as { n: number }).n;
          const p = paid.get({ ...range, a: a.id }) as { n: number; amount: number };
          if (c > 0 || p.n > 0) out.push({ accountId: a.id, pid, payType: a.pay_type, paidCount: p.n, paidAmount: p.amount, created: c });
        }
        for (const r of noAccount.all(range) as { pay_type: string; n: number }[]) {
          out.push({ accountId: null, pid, payType: r.pay_type, paidCount: 0, paidAmount: 0, created: r.n });
        }
      }
      return out;
    })();
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
