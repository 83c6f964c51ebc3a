// The store's read-only figures: income (`xpay stats` and the console dashboard read the same
// units) and the gauges /metrics reads at scrape time. A sub-port of Store (`store.stats`); every
// unit is a set of plain range counts a PostgreSQL adapter can run as they are.
//
// Paid figures count orders by paid_at, `created` by created_at (core/stats/income.ts says why).
// Both stores keep the figures per UTC hour and day (a rollup written with each order change,
// migration 025) and read a range as core/stats/rollup-pieces.ts cuts it: exact for any edges.

export interface IncomeCounts {
  paidCount: number;
  /** Sum of the paid orders' trade_amount, cents. */
  paidAmount: number;
  /** Orders created in the range, whatever became of them (failed creations included). */
  created: number;
}

/** The figures of one receiving account and one merchant over a range. */
export interface AccountIncome extends IncomeCounts {
  /** null: orders without an account (failed creations, orders whose payer has not picked yet). */
  accountId: number | null;
  pid: number;
  /** The account's pay type (fixed once an order used it), or the order's for accountId null. */
  payType: string;
}

export interface OutboxGauge {
  /** Notifications still to be delivered (status pending, due or waiting for a retry). */
  pending: number;
  /** Of those, the ones due now. */
  due: number;
  /** next_attempt_at (ms) of the oldest due one; null when none is due. */
  oldestDueMs: number | null;
}

export interface StatsStore {
  /**
   * The figures of each range [edges[i], edges[i + 1]) (unix seconds, ascending): one entry per
   * range, edges.length - 1 in all. The core computes the edges (local days or hours).
   */
  incomeByRange(q: { edges: number[]; pid?: number }): Promise<IncomeCounts[]>;
  /** The figures of [from, to) per account and merchant; only combinations with any order. */
  incomeByAccount(q: { from: number; to: number; pid?: number }): Promise<AccountIncome[]>;
  outbox(nowMs: number): Promise<OutboxGauge>;
  /** Monitoring clients (phones, watchers, V免签 apps) seen at or after `since` (unix seconds). */
  clientsOnline(since: number): Promise<number>;
  /**
   * Timings of the store's write transactions (SQLite: each group commit of order creates), for
   * the write-latency histogram of /metrics. Returns the function that stops the listener.
   */
  observeWrites(listener: (seconds: number) => void): () => void;
}
