// Per-merchant delivery health (the merchants list, a merchant's page, `xpay notify health`). The
// last success of one merchant cannot be read from notifications without scanning them (they have
// no pid and delivered rows are most of the table), so each recorded attempt keeps one row per
// merchant up to date: its last success, since when it has failed without one, its last error,
// and a running count of deliveries (a resend's outcome is the count now minus the count then).
// The backfill reads the history once; attempts newer than the last success make "failing since".
// The orders list finds a payer's orders by address (clientip), newest first: an index of its own.
// Its totals (count and sums of a whole filter) read migration 010's orders_created_stats, widened
// here to hold every column a filter or a sum needs: a million orders are summed from the index
// (~60 ms of CPU) instead of the table (~110-140 ms); the stats' created counts keep using it.
export default `
CREATE TABLE merchant_delivery (
  pid             INTEGER PRIMARY KEY REFERENCES merchants (pid),
  last_success_at INTEGER,
  failing_since   INTEGER,
  last_failure_at INTEGER,
  last_error      TEXT    NOT NULL DEFAULT '',
  delivered       INTEGER NOT NULL DEFAULT 0
);
INSERT INTO merchant_delivery (pid, last_success_at, delivered)
  SELECT o.pid, MAX(n.delivered_at), COUNT(n.delivered_at) FROM notifications n JOIN orders o ON o.trade_no = n.trade_no GROUP BY o.pid;
UPDATE merchant_delivery SET (failing_since, last_failure_at) = (
  SELECT MIN(a.attempted_at), MAX(a.attempted_at)
  FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id JOIN orders o ON o.trade_no = n.trade_no
  WHERE o.pid = merchant_delivery.pid AND a.acknowledged = 0 AND a.attempted_at > COALESCE(merchant_delivery.last_success_at, 0));
UPDATE merchant_delivery SET last_error = COALESCE((
  SELECT COALESCE(NULLIF(a.error, ''), 'HTTP ' || a.http_status, '')
  FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id JOIN orders o ON o.trade_no = n.trade_no
  WHERE o.pid = merchant_delivery.pid AND a.attempted_at = merchant_delivery.last_failure_at AND a.acknowledged = 0 LIMIT 1), '')
WHERE last_failure_at IS NOT NULL;

CREATE INDEX orders_by_clientip ON orders (clientip, created_at);
DROP INDEX orders_created_stats;
CREATE INDEX orders_created_stats ON orders (created_at, pid, pay_type, account_id, status, expire_time, amount, trade_amount);
`;
