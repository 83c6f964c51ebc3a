// The public number of a stored order key, for the row mappers both adapters share. SQLite stores
// a new order under a 32-character key (src/store/sqlite/order-keys.ts): day (8) + sequence (12) +
// the public digits (12); the public number is the day and the last 12. Any other value (an older
// SQLite order, every PostgreSQL order) is its public number already.
const STORED_LENGTH = 32;

export function publicTradeNo(stored: string): string {
  return stored.length === STORED_LENGTH ? stored.slice(0, 8) + stored.slice(20) : stored;
}

/** publicTradeNo for a column that may be NULL. */
export function publicTradeNoOrNull(stored: unknown): string | null {
  return stored === null || stored === undefined ? null : publicTradeNo(String(stored));
}

/** publicTradeNo in SQLite's SQL, for a `trade_no` column (benchmarks and tests that read a file). */
export const PUBLIC_TRADE_NO_SQL = "(CASE WHEN length(trade_no) = 32 THEN substr(trade_no, 1, 8) || substr(trade_no, 21) ELSE trade_no END)";
