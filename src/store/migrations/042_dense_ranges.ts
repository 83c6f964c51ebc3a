// 042 on SQLite: nothing. PostgreSQL's 042 lets its create function remember, per connection, the
// ranges too dense to walk, as SQLite's connection does in channels.ts (takenTradeAmounts). The
// number is kept so that a version means the same schema on both engines.
export default `SELECT 1;`;
