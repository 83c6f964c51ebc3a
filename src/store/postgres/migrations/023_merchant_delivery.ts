// PostgreSQL 023, as SQLite's: per-merchant delivery health, one row per merchant kept by each attempt.
export default `
CREATE TABLE merchant_delivery (
  pid             BIGINT  PRIMARY KEY REFERENCES merchants (pid),
  last_success_at BIGINT,
  failing_since   BIGINT,
  last_failure_at BIGINT,
  last_error      TEXT    NOT NULL DEFAULT '',
  delivered       BIGINT  NOT NULL DEFAULT 0
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
