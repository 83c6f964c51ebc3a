// 043 on SQLite: nothing. PostgreSQL's 043 runs the batch's creates with fewer statements (its
// create function's answer as a value, not a query). The number is kept so that a version means
// the same schema on both engines.
export default `SELECT 1;`;
