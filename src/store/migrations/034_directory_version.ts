// Who watches which account, read once per change instead of on every payment report. A report
// is checked against the keyed clients (whose secret signed it) and settled on the accounts its
// source watches (core/clients/watch.ts); both came from reading every keyed client (twice) and
// every account on each report (15 % of the server's samples in a report -> notification run). The
// store now keeps that directory and reads it again only when this version moved. Triggers move it on
// every write that changes what the directory holds, from any connection or process (a phone
// removed with `xpay client remove` in another process must stop verifying at once), so no code
// path can forget to. Left out, and so free to move without a new read: the round-robin stamp
// (use_seq, written by every create), the accounts' last_seen_at, and the V免签 heartbeat and
// push stamps of keyed_clients. `UPDATE OF` names the columns a statement must set for a trigger
// to be considered at all, so a create's stamp never runs one; the WHEN clause keeps a statement
// that sets a column to its own value (the heartbeat's COALESCE(enabled)) from moving it.
// The columns the directory holds; PostgreSQL's 034 reads the same two lists (a migration's text
// never changes once shipped, so neither does what it imports from here).
export const ACCOUNT_COLUMNS = ["pid", "pay_type", "code", "name", "remark", "qrcode", "scheme", "min_amount", "max_amount", "day_amount", "sort", "enabled", "created_at", "report_group"];
export const CLIENT_COLUMNS = ["kind", "pid", "name", "key", "accounts", "created_at"];

// A new random value, not v + 1: the store compares it for equality only, and a database restored
// from a backup under a running server must not count back up to a value it has kept an answer under.
const BUMP = "UPDATE directory_version SET v = random();";
const triggers = (table: string, cols: string[]) => `
CREATE TRIGGER ${table}_directory_insert AFTER INSERT ON ${table} BEGIN ${BUMP} END;
CREATE TRIGGER ${table}_directory_delete AFTER DELETE ON ${table} BEGIN ${BUMP} END;
CREATE TRIGGER ${table}_directory_update AFTER UPDATE OF id, ${cols.join(", ")} ON ${table}
WHEN ${["id", ...cols].map((c) => `OLD.${c} IS NOT NEW.${c}`).join(" OR ")} BEGIN ${BUMP} END;`;

export default `
CREATE TABLE directory_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  v  INTEGER NOT NULL
);
INSERT INTO directory_version (id, v) VALUES (1, 0);
${triggers("channel_accounts", ACCOUNT_COLUMNS)}
${triggers("keyed_clients", CLIENT_COLUMNS)}
`;
