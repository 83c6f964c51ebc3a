// The store's read-only figures: income over a time range (`xpay stats` and the console dashboard
// read the same query) and the gauges /metrics reads at scrape time. A sub-port of Store
// (`store.stats`); every unit is one or two plain aggregate queries a PostgreSQL adapter can run
// as they are.

/**
 * What the income rows are grouped by: `quarter` is the quarter hour (core/stats/calendar.ts);
 * `detail` is pay type, account and merchant at once, so one scan feeds all three breakdowns.
 */
export type IncomeKey = "total" | "quarter" | "pay-type" | "account" | "merchant" | "detail";

export interface IncomeQuery {
  /** Unix seconds, inclusive. */
  from: number;
  /** Unix seconds, exclusive. */
  to: number;
  pid?: number;
  by: IncomeKey;
}

/**
 * One group. `key`: "" for `total`; the quarter-hour number (floor(seconds / 900)) for
 * `quarter`; the pay type, account id or pid for the others ("" when the order has none);
 * "pay_type|account_id|pid" for `detail`.
 * Paid figures count orders by their paid_at, `created` by their created_at, both in the range.
 */
export interface IncomeRow {
  key: string;
  paidCount: number;
  /** Sum of the paid orders' trade_amount, cents. */
  paidAmount: number;
  /** Orders created in the range, whatever became of them (failed creations included). */
  created: number;
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
  /** Income rows of one range, one row per group that has any order (no empty groups). */
  income(q: IncomeQuery): Promise<IncomeRow[]>;
  outbox(nowMs: number): Promise<OutboxGauge>;
  /** Monitoring clients (phones, watchers, V免签 apps) seen at or after `since` (unix seconds). */
  clientsOnline(since: number): Promise<number>;
  /**
   * Timings of the store's write transactions (SQLite: each group commit of order creates), for
   * the write-latency histogram of /metrics. Returns the function that stops the listener.
   */
  observeWrites(listener: (seconds: number) => void): () => void;
}
