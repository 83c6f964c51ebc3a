// Migrations are TypeScript string modules, imported statically so the compiled binary carries them.
export default `
CREATE TABLE merchants (
  pid            INTEGER PRIMARY KEY,
  name           TEXT    NOT NULL,
  secret         TEXT    NOT NULL,
  active         INTEGER NOT NULL DEFAULT 1,
  rsa_public_key TEXT,
  notify_method  TEXT    NOT NULL DEFAULT 'POST' CHECK (notify_method IN ('POST', 'GET')),
  settings       TEXT    NOT NULL DEFAULT '{}',
  created_at     INTEGER NOT NULL
);

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- pid 0 marks an account shared by every merchant, so pid is not a foreign key.
CREATE TABLE channel_accounts (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  pid          INTEGER NOT NULL DEFAULT 0,
  pay_type     TEXT    NOT NULL,
  code         TEXT    NOT NULL,
  name         TEXT    NOT NULL,
  remark       TEXT    NOT NULL DEFAULT '',
  qrcode       TEXT    NOT NULL,
  scheme       TEXT    NOT NULL DEFAULT '',
  min_amount   INTEGER NOT NULL DEFAULT 0,
  max_amount   INTEGER NOT NULL DEFAULT 0,
  day_amount   INTEGER NOT NULL DEFAULT 0,
  sort         INTEGER NOT NULL DEFAULT 0,
  enabled      INTEGER NOT NULL DEFAULT 1,
  last_used_at INTEGER NOT NULL DEFAULT 0,
  last_seen_at INTEGER NOT NULL DEFAULT 0,
  created_at   INTEGER NOT NULL
);
CREATE INDEX channel_accounts_pay_type ON channel_accounts (pay_type, enabled);

CREATE TABLE orders (
  trade_no     TEXT    PRIMARY KEY,
  pid          INTEGER NOT NULL REFERENCES merchants (pid),
  out_trade_no TEXT    NOT NULL,
  family       TEXT    NOT NULL,
  pay_type     TEXT    NOT NULL DEFAULT '',
  name         TEXT    NOT NULL,
  amount       INTEGER NOT NULL CHECK (amount > 0),
  trade_amount INTEGER CHECK (trade_amount > 0),
  account_id   INTEGER REFERENCES channel_accounts (id),
  status       INTEGER NOT NULL CHECK (status BETWEEN 1 AND 5),
  fail_reason  TEXT    NOT NULL DEFAULT '',
  notify_url   TEXT    NOT NULL DEFAULT '',
  return_url   TEXT    NOT NULL DEFAULT '',
  param        TEXT    NOT NULL DEFAULT '',
  clientip     TEXT    NOT NULL DEFAULT '',
  device       TEXT    NOT NULL DEFAULT '',
  extra        TEXT    NOT NULL DEFAULT '{}',
  api_trade_no TEXT    NOT NULL DEFAULT '',
  buyer        TEXT    NOT NULL DEFAULT '',
  created_at   INTEGER NOT NULL,
  expire_time  INTEGER NOT NULL,
  paid_at      INTEGER,
  closed_at    INTEGER,
  UNIQUE (pid, out_trade_no)
);
-- Slot search and report matching both look orders up by account and payable amount.
CREATE INDEX orders_slot ON orders (account_id, trade_amount, status);
CREATE INDEX orders_expiry ON orders (status, expire_time);
CREATE INDEX orders_paid_day ON orders (account_id, paid_at) WHERE status = 2;

-- The outbox: one row per paid order with a notify_url, written in the same commit as the payment.
CREATE TABLE notifications (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  trade_no        TEXT    NOT NULL UNIQUE REFERENCES orders (trade_no),
  family          TEXT    NOT NULL,
  url             TEXT    NOT NULL,
  method          TEXT    NOT NULL,
  params          TEXT    NOT NULL,
  status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  claimed_until   INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  delivered_at    INTEGER
);
CREATE INDEX notifications_due ON notifications (status, next_attempt_at);

CREATE TABLE notification_attempts (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  notification_id INTEGER NOT NULL REFERENCES notifications (id),
  attempted_at    INTEGER NOT NULL,
  duration_ms     INTEGER NOT NULL,
  http_status     INTEGER,
  body            TEXT    NOT NULL DEFAULT '',
  error           TEXT    NOT NULL DEFAULT '',
  acknowledged    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX notification_attempts_by_notification ON notification_attempts (notification_id);

CREATE TABLE reports (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  kind         TEXT    NOT NULL,
  pid          INTEGER,
  client       TEXT    NOT NULL DEFAULT '',
  raw          TEXT    NOT NULL,
  amount       INTEGER,
  pay_type     TEXT    NOT NULL DEFAULT '',
  channel_code TEXT    NOT NULL DEFAULT '',
  dedupe_key   TEXT,
  outcome      TEXT    NOT NULL,
  reason       TEXT    NOT NULL DEFAULT '',
  trade_no     TEXT,
  created_at   INTEGER NOT NULL
);
CREATE UNIQUE INDEX reports_dedupe ON reports (dedupe_key) WHERE dedupe_key IS NOT NULL AND outcome IN ('matched', 'unmatched');
CREATE INDEX reports_by_pid ON reports (pid, created_at);

CREATE TABLE clients (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  kind         TEXT    NOT NULL,
  pid          INTEGER,
  name         TEXT    NOT NULL,
  channel_id   INTEGER,
  ext_data     TEXT    NOT NULL DEFAULT '',
  last_seen_at INTEGER NOT NULL,
  UNIQUE (kind, pid, name)
);
`;
