// Issue 18. Income stats (`xpay stats`, the console dashboard) count index ranges, never table
// rows (store/sqlite/stats.ts): orders by paid_at and by created_at, and the same per (account,
// merchant) pair for the breakdowns. The two paid indexes are partial: written when an order is
// paid, nothing on create. created_at only grows, so a create appends at the end of the first
// created index and at the end of its pair's range in the second. The console's unfiltered
// order list walks orders_created_stats too (migration 011).
// Operator-defined message rules are data, checked on save (core/rules/check.ts); payment-app
// notifications no rule recognises are kept in a bounded table (core/rules/unparsed.ts), one row
// per notification (pid + content key: a phone's re-send bumps `count`).
export default `
CREATE INDEX orders_paid_stats ON orders (paid_at, pid, pay_type, account_id, trade_amount) WHERE status = 2;
CREATE INDEX orders_created_stats ON orders (created_at, pid, pay_type, account_id);
CREATE INDEX orders_account_paid ON orders (account_id, pid, paid_at, trade_amount) WHERE status = 2;
CREATE INDEX orders_account_created ON orders (account_id, pid, created_at, pay_type);

CREATE TABLE message_rules (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT    NOT NULL UNIQUE,
  package    TEXT    NOT NULL,
  title      TEXT    NOT NULL,
  text       TEXT    NOT NULL,
  pay_type   TEXT    NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE unparsed_messages (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  pid        INTEGER NOT NULL,
  key        TEXT    NOT NULL,
  package    TEXT    NOT NULL,
  title      TEXT    NOT NULL,
  text       TEXT    NOT NULL,
  reason     TEXT    NOT NULL,
  count      INTEGER NOT NULL DEFAULT 1,
  first_seen INTEGER NOT NULL,
  last_seen  INTEGER NOT NULL,
  UNIQUE (pid, key)
);
CREATE INDEX unparsed_messages_seen ON unparsed_messages (last_seen);
`;
