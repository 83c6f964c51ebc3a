// 038 on SQLite: nothing. PostgreSQL's 038 records a report's heartbeat in one call of a function;
// SQLite writes it in the group commit. The number is kept so that a version means the same schema
// on both engines (`xpay migrate`, the downgrade guard, test/pg/migrate.test.ts).
export default `SELECT 1;`;
