// Every report source is a client with a secret of its own (issue 30 and the security round 27):
// the V免签 clients' table becomes keyed_clients, with the kind of client (vmq, smsforwarder, or a
// report-API client) and an owner that may be 0 (the operator's phone, which may pay any
// merchant's orders on the accounts it watches; hence no foreign key to merchants any more).
// `accounts` binds a client to the accounts its phone watches (empty: every account in its scope
// that no client is bound to).
// channel_accounts.report_group: the accounts one report could mean (core/clients/watch.ts), as the
// smallest account id of the group; the allocator keeps payable amounts unique across a group, so
// a report that names no account still means one order. 0: not computed yet (the account alone).
// report_nonces: an SmsForwarder request is signed over its timestamp only, so each (client,
// timestamp) is accepted once; rows older than the window are pruned.
export default `
CREATE TABLE keyed_clients (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  kind          TEXT    NOT NULL DEFAULT 'vmq' CHECK (kind IN ('vmq', 'smsforwarder', 'report')),
  pid           INTEGER NOT NULL,
  name          TEXT    NOT NULL UNIQUE,
  key           TEXT    NOT NULL UNIQUE,
  accounts      TEXT    NOT NULL DEFAULT '',
  created_at    INTEGER NOT NULL,
  last_heart_t  INTEGER NOT NULL DEFAULT 0,
  last_heart_at INTEGER NOT NULL DEFAULT 0,
  last_push_at  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO keyed_clients (id, kind, pid, name, key, accounts, created_at, last_heart_t, last_heart_at, last_push_at)
  SELECT id, 'vmq', pid, name, key, accounts, created_at, last_heart_t, last_heart_at, last_push_at FROM vmq_clients;
DROP TABLE vmq_clients;

ALTER TABLE channel_accounts ADD COLUMN report_group INTEGER NOT NULL DEFAULT 0;
CREATE INDEX channel_accounts_report_group ON channel_accounts (report_group);

CREATE TABLE report_nonces (
  client_id INTEGER NOT NULL,
  ts        INTEGER NOT NULL,
  seen_at   INTEGER NOT NULL,
  PRIMARY KEY (client_id, ts)
) WITHOUT ROWID;
`;
