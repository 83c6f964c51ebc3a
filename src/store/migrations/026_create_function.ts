// 026 on SQLite: nothing. PostgreSQL's 026 installs its create function (one round trip per
// create); SQLite runs the create in-process already. The number is kept here so that a version
// means the same schema on both engines (`xpay migrate`, the downgrade guard, test/pg/migrate.test.ts).
export default `SELECT 1;`;
