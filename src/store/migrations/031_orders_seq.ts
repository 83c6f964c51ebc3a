// orders_created_stats (010, widened in 023) holds every column the orders list's totals and the
// stats' minute edges read, after created_at: the merchant, pay type, account, status, expiry and
// amounts. Within one second its entries therefore fall in (merchant, pay type, account) order,
// and a busy second's creates land on as many pages as it has accounts: 0.65 log pages per create,
// a fifth of what a create writes (bench/wal-pages.ts). `seq` grows with every order the create
// path inserts (the row's rowid: the insert reads the largest one, a step down the table's right
// edge, and SQLite gives the row the next), and it comes right after created_at, so the entries of
// one second fall in insertion order and the index only grows at its end. Older rows and rows
// written by other paths (db copy, test data) have none: NULL sorts first within its second, which
// costs those rows their place at the end and nothing else. PostgreSQL gets the same column from a
// sequence (its 031), so a copy carries the same columns both ways.
export default `
ALTER TABLE orders ADD COLUMN seq INTEGER;
DROP INDEX orders_created_stats;
CREATE INDEX orders_created_stats ON orders (created_at, seq, pid, pay_type, account_id, status, expire_time, amount, trade_amount);
`;
