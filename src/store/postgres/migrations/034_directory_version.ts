// 034 on PostgreSQL: the directory version, kept by the same rules as SQLite's (see
// src/store/migrations/034_directory_version.ts), and read by the store the same way: once per
// report, in place of the accounts and keyed clients (postgres/directory.ts). A change made
// through any instance bumps it in the change's own transaction, so every instance's next read
// sees it: a phone removed through one stops verifying on all at once. Row triggers with the same
// WHEN as SQLite's: a statement that sets a column to the value it has (the heartbeat's
// COALESCE(enabled)) moves nothing, and a create's stamp (use_seq) is not in UPDATE OF at all.
import { ACCOUNT_COLUMNS, CLIENT_COLUMNS } from "../../migrations/034_directory_version.ts";

const triggers = (table: string, cols: string[]) => `
CREATE TRIGGER ${table}_directory_insert AFTER INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION directory_changed();
CREATE TRIGGER ${table}_directory_delete AFTER DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION directory_changed();
CREATE TRIGGER ${table}_directory_update AFTER UPDATE OF id, ${cols.join(", ")} ON ${table} FOR EACH ROW
  WHEN (${["id", ...cols].map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(" OR ")})
  EXECUTE FUNCTION directory_changed();`;

export default `
CREATE TABLE directory_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  v  BIGINT  NOT NULL
);
INSERT INTO directory_version (id, v) VALUES (1, 0);
CREATE FUNCTION directory_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- A new random value, not v + 1: compared for equality only, and a database restored from a
  -- backup under running instances must not count back up to a value one has kept an answer under.
  UPDATE directory_version SET v = (random() * 9.2e18)::bigint;
  RETURN NULL;
END
$fn$;
${triggers("channel_accounts", ACCOUNT_COLUMNS)}
${triggers("keyed_clients", CLIENT_COLUMNS)}
`;
