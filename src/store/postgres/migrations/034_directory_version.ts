// 034 on PostgreSQL: SQLite's directory version (see src/store/migrations/034_directory_version.ts),
// kept by the same rules so that a version means the same schema on both engines and `db copy`
// finds the same tables. PostgreSQL's store does not read it: it reads the accounts and keyed
// clients on every report as before. A cached directory there would need the version read per
// report anyway (another instance's change must be seen at once), a round trip of its own. The
// triggers are per statement: what changed does not matter, only that something did, and one
// bump per statement keeps an operator's bulk change to one write of the row.
const ACCOUNT_COLUMNS = ["pid", "pay_type", "code", "name", "remark", "qrcode", "scheme", "min_amount", "max_amount", "day_amount", "sort", "enabled", "created_at", "report_group"];
const CLIENT_COLUMNS = ["kind", "pid", "name", "key", "accounts", "created_at"];

// A statement that names a column without changing it (the heartbeat's COALESCE(enabled)) bumps
// the version here, where SQLite's WHEN clause does not: a reader of it reads again, nothing worse.
const triggers = (table: string, cols: string[]) => `
CREATE TRIGGER ${table}_directory AFTER INSERT OR DELETE OR UPDATE OF id, ${cols.join(", ")} ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION directory_changed();`;

export default `
CREATE TABLE directory_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  v  BIGINT  NOT NULL
);
INSERT INTO directory_version (id, v) VALUES (1, 0);
CREATE FUNCTION directory_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE directory_version SET v = v + 1;
  RETURN NULL;
END
$fn$;
${triggers("channel_accounts", ACCOUNT_COLUMNS)}
${triggers("keyed_clients", CLIENT_COLUMNS)}
`;
