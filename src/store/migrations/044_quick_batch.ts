// 044 on SQLite: nothing. PostgreSQL's 044 runs a batch's creates without a subtransaction each
// while none fails (SQLite's writes are one at a time, with no such batch). The number is kept so
// that a version means the same schema on both engines.
export default `SELECT 1;`;
