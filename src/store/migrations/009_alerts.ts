// Operator alerts (core/alerts): the channels an operator configured, one row per alert instance
// (its dedupe key, whether it fires now, when a message last went out: the throttle), the outbox
// of messages (one row per channel, retried like merchant notifications) with its attempt log,
// and the cursors of the event scans (reports and notification attempts already looked at).
// alert_messages keeps the channel's name and type, not a foreign key: removing a channel keeps
// what was sent through it in `xpay alert history`.
export default `
CREATE TABLE alert_channels (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT    NOT NULL UNIQUE,
  type       TEXT    NOT NULL,
  config     TEXT    NOT NULL,
  enabled    INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL
);

CREATE TABLE alert_instances (
  key          TEXT    PRIMARY KEY,
  condition    TEXT    NOT NULL,
  state        TEXT    NOT NULL CHECK (state IN ('firing', 'resolved', 'event')),
  notified     INTEGER NOT NULL DEFAULT 0,
  opened_at    INTEGER NOT NULL,
  resolved_at  INTEGER,
  last_sent_at INTEGER,
  flaps        INTEGER NOT NULL DEFAULT 0,
  finding      TEXT    NOT NULL
);
CREATE INDEX alert_instances_state ON alert_instances (state, opened_at);

CREATE TABLE alert_messages (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  channel_id      INTEGER NOT NULL,
  channel_name    TEXT    NOT NULL,
  channel_type    TEXT    NOT NULL,
  event           TEXT    NOT NULL,
  alert_key       TEXT    NOT NULL DEFAULT '',
  title           TEXT    NOT NULL,
  message         TEXT    NOT NULL,
  status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  claimed_until   INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  sent_at         INTEGER
);
CREATE INDEX alert_messages_due ON alert_messages (status, next_attempt_at);

CREATE TABLE alert_attempts (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id   INTEGER NOT NULL REFERENCES alert_messages (id) ON DELETE CASCADE,
  attempted_at INTEGER NOT NULL,
  duration_ms  INTEGER NOT NULL,
  http_status  INTEGER,
  answer       TEXT    NOT NULL DEFAULT '',
  error        TEXT    NOT NULL DEFAULT '',
  ok           INTEGER NOT NULL
);
CREATE INDEX alert_attempts_by_message ON alert_attempts (message_id);

CREATE TABLE alert_cursors (
  name  TEXT    PRIMARY KEY,
  value INTEGER NOT NULL
);
`;
