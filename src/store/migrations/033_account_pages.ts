// 033 on SQLite: nothing. PostgreSQL's 033 sets channel_accounts' fillfactor so that its pages are
// pruned of dead row versions as creates go; SQLite keeps no old versions of a row in the table.
// The number is kept so that a version means the same schema on both engines.
export default `SELECT 1;`;
