// 045 on SQLite: nothing. PostgreSQL's 045 writes the heartbeats an instance has waiting in one call
// (a round trip and a transaction each there; on SQLite a beat is a few statements in process). The
// number is kept so that a version means the same schema on both engines.
export default `SELECT 1;`;
