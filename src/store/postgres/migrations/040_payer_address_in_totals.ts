// 040 on PostgreSQL: nothing. SQLite's 040 drops the payer-address index and carries the address in
// its totals index instead, because SQLite tests a condition on an index's columns before it reads
// the row. A plain index scan of PostgreSQL reads each row from the table before its filter, so an
// address search without its index would read every order. The number is kept so that a version
// means the same schema version on both engines (`xpay migrate`, the downgrade guard,
// test/pg/migrate.test.ts).
export default `SELECT 1;`;
