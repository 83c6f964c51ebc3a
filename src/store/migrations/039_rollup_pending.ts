// 039 on SQLite: nothing. PostgreSQL's 039 moves the income rollup's counts through a table of
// pending rows, folded once a second, so that no payment waits for another's commit on a rollup row;
// SQLite's writes are one at a time, and 025's trigger keeps its rollup in each write. The number is
// kept so that a version means the same schema on both engines (`xpay migrate`, the downgrade guard,
// test/pg/migrate.test.ts).
export default `SELECT 1;`;
