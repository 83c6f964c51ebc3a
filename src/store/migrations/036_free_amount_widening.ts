// 036 on SQLite: nothing. PostgreSQL's 036 makes its create function read amounts as the core's
// rule does; SQLite runs the rule in-process. The number is kept so that a version means the same
// schema on both engines (`xpay migrate`, the downgrade guard, test/pg/migrate.test.ts).
export default `SELECT 1;`;
