// SQLite side of the StatsStore sub-port (src/core/stats/store.ts). A range is read in the pieces
// core/stats/rollup-pieces.ts cuts it into: whole UTC days and hours summed from the rollup
// (migration 025: rows per hour and per day and (merchant, account, pay type), kept by triggers in
// the transaction of each order write), the minutes at its ends counted from orders by their
// created_at and paid_at indexes. The rows read follow days, hours and accounts, not orders. Each
// unit reads one snapshot (a read transaction, which never waits for the writer in WAL mode).
import type { Database } from "bun:sqlite";
import { rollupPieces, type Span } from "../../core/stats/rollup-pieces.ts";
import type { AccountIncome, IncomeCounts, OutboxGauge, StatsStore } from "../../core/stats/store.ts";

type Sums = { paid: number; amount: number; created: number };
type Piece = "day" | "hour" | "created" | "paid";

/** One piece's statement: summed (`group` false) or per (account, merchant, pay type). Exported for the plan test. */
export function pieceSql(piece: Piece, o: { pid: boolean; group: boolean }): string {
  const pid = o.pid ? " AND pid = $pid" : "";
  const cols = o.group ? "account_id, pid, pay_type, " : "";
  const by = o.group ? " GROUP BY 1, 2, 3" : "";
  if (piece === "day" || piece === "hour") {
    return `SELECT ${cols}COALESCE(sum(paid_count), 0) AS paid, COALESCE(sum(paid_amount), 0) AS amount, COALESCE(sum(created), 0) AS created
      FROM order_rollup_${piece} WHERE bucket >= $from AND bucket < $to${pid}${by}`;
  }
  const orderCols = o.group ? "COALESCE(account_id, 0) AS account_id, pid, pay_type, " : "";
  // INDEXED BY: without ANALYZE statistics the planner may prefer an index with an equality on status.
  return piece === "created"
    ? `SELECT ${orderCols}0 AS paid, 0 AS amount, count(*) AS created FROM orders INDEXED BY orders_created_stats
      WHERE created_at >= $from AND created_at < $to${pid}${by}`
    : `SELECT ${orderCols}count(*) AS paid, COALESCE(sum(trade_amount), 0) AS amount, 0 AS created FROM orders INDEXED BY orders_paid_at
      WHERE status = 2 AND paid_at >= $from AND paid_at < $to${pid}${by}`;
}

/** Each piece of [from, to) with the statement that reads it. */
function pieces(from: number, to: number): [Piece, Span][] {
  const p = rollupPieces(from, to);
  return [
    ...p.days.map((s): [Piece, Span] => ["day", s]),
    ...p.hours.map((s): [Piece, Span] => ["hour", s]),
    ...p.orders.flatMap((s): [Piece, Span][] => [["created", s], ["paid", s]]),
  ];
}

export class SqliteStats implements StatsStore {
  private readonly listeners = new Set<(seconds: number) => void>();

  constructor(private readonly db: Database) {}

  private bind(s: Span, pid: number | undefined): Record<string, number> {
    return pid === undefined ? { from: s[0], to: s[1] } : { from: s[0], to: s[1], pid };
  }

  async incomeByRange(q: { edges: number[]; pid?: number }): Promise<IncomeCounts[]> {
    const o = { pid: q.pid !== undefined, group: false };
    return this.db.transaction(() => {
      const out: IncomeCounts[] = [];
      for (let i = 0; i + 1 < q.edges.length; i++) {
        const sum = { paidCount: 0, paidAmount: 0, created: 0 };
        for (const [piece, span] of pieces(q.edges[i]!, q.edges[i + 1]!)) {
          const s = this.db.query(pieceSql(piece, o)).get(this.bind(span, q.pid)) as Sums;
          sum.paidCount += s.paid;
          sum.paidAmount += s.amount;
          sum.created += s.created;
        }
        out.push(sum);
      }
      return out;
    })();
  }

  async incomeByAccount(q: { from: number; to: number; pid?: number }): Promise<AccountIncome[]> {
    const o = { pid: q.pid !== undefined, group: true };
    return this.db.transaction(() => {
      const rows = new Map<string, AccountIncome>();
      for (const [piece, span] of pieces(q.from, q.to)) {
        for (const r of this.db.query(pieceSql(piece, o)).all(this.bind(span, q.pid)) as (Sums & { account_id: number; pid: number; pay_type: string })[]) {
          const key = `${r.account_id}\u0000${r.pid}\u0000${r.pay_type}`;
          let row = rows.get(key);
          if (!row) rows.set(key, (row = { accountId: r.account_id === 0 ? null : r.account_id, pid: r.pid, payType: r.pay_type, paidCount: 0, paidAmount: 0, created: 0 }));
          row.paidCount += r.paid;
          row.paidAmount += r.amount;
          row.created += r.created;
        }
      }
      return [...rows.values()].filter((r) => r.created !== 0 || r.paidCount !== 0);
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
