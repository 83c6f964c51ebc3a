// The operator console (issue 17): operator accounts, their browser sessions, the one-time setup
// links `serve` prints while no operator exists, and the audit log of operator actions.
// A session row holds only the SHA-256 of its cookie token (a copied database opens no session);
// ids are AUTOINCREMENT so a revoked session's id is never handed to a new one. The audit log
// names the actor by name, not by id: it outlives the operator it names.
export default `
CREATE TABLE operators (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  name                TEXT    NOT NULL UNIQUE COLLATE NOCASE,
  password_hash       TEXT    NOT NULL,
  created_at          INTEGER NOT NULL,
  password_changed_at INTEGER NOT NULL,
  last_login_at       INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE operator_sessions (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash   TEXT    NOT NULL UNIQUE,
  operator_id  INTEGER NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  ip           TEXT    NOT NULL DEFAULT '',
  last_ip      TEXT    NOT NULL DEFAULT '',
  user_agent   TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

CREATE TABLE console_setup_tokens (
  token_hash TEXT    PRIMARY KEY,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);

CREATE TABLE audit_log (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  at          INTEGER NOT NULL,
  actor       TEXT    NOT NULL,
  action      TEXT    NOT NULL,
  target      TEXT    NOT NULL DEFAULT '',
  ip          TEXT    NOT NULL DEFAULT '',
  before_json TEXT,
  after_json  TEXT,
  reason      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_actor ON audit_log (actor COLLATE NOCASE, id);
CREATE INDEX audit_log_action ON audit_log (action, id);
`;
