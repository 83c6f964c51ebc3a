// 032 on SQLite: nothing. PostgreSQL's 032 rewrites its report-group function in plpgsql, planned
// once per connection instead of on every call; SQLite reads the group in-process already. The
// number is kept so that a version means the same schema on both engines.
export default `SELECT 1;`;
