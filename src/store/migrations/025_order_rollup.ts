// Income and counts kept as they happen, instead of counted from orders: `xpay stats`, the
// dashboard, the merchants list, accounts-today and the allocator's daily limits read one row per
// quarter hour and (merchant, account, pay type) here, never an index range of orders. Triggers
// keep it in the same transaction as every write of orders (create, retry, pay-type pick, pay, late
// pay, assignment, manual pay, a copy's inserts), so no code path can forget it.
// A quarter hour (UTC): every time zone's days and hours start on one, so a local day or hour is a
// whole number of buckets. An order counts `created` in the bucket of created_at under its
// (pid, account, pay type) of now, and, while status = 2, `paid_count`/`paid_amount`
// (trade_amount) in the bucket of paid_at. account_id 0: no account (failed, unpicked).
// The indexes of orders that only stats read go: orders_account_created (a write per create),
// orders_account_paid, orders_paid_day (daily limits) and orders_paid_stats (written per payment);
// the orders list's paid-time filter keeps a narrow paid_at index. orders_created_stats stays: the
// orders list's totals and its unfiltered page read it (docs/decisions/metrics-and-stats.md).
const bucket = (col: string) => `${col} - ${col} % 900`;
const key = (r: "NEW" | "OLD") => `pid = ${r}.pid AND account_id = COALESCE(${r}.account_id, 0) AND pay_type = ${r}.pay_type`;
const addCreated = `INSERT INTO order_rollup (bucket, pid, account_id, pay_type, created)
    VALUES (${bucket("NEW.created_at")}, NEW.pid, COALESCE(NEW.account_id, 0), NEW.pay_type, 1)
    ON CONFLICT DO UPDATE SET created = created + 1;`;
const addPaid = `INSERT INTO order_rollup (bucket, pid, account_id, pay_type, paid_count, paid_amount)
    SELECT ${bucket("NEW.paid_at")}, NEW.pid, COALESCE(NEW.account_id, 0), NEW.pay_type, 1, COALESCE(NEW.trade_amount, 0) WHERE NEW.status = 2
    ON CONFLICT DO UPDATE SET paid_count = paid_count + 1, paid_amount = paid_amount + excluded.paid_amount;`;
const dropCreated = `UPDATE order_rollup SET created = created - 1 WHERE bucket = ${bucket("OLD.created_at")} AND ${key("OLD")};`;
const dropPaid = `UPDATE order_rollup SET paid_count = paid_count - 1, paid_amount = paid_amount - COALESCE(OLD.trade_amount, 0)
    WHERE OLD.status = 2 AND bucket = ${bucket("OLD.paid_at")} AND ${key("OLD")};`;
const keyMoved = "OLD.pid IS NOT NEW.pid OR OLD.account_id IS NOT NEW.account_id OR OLD.pay_type IS NOT NEW.pay_type";

export default `
CREATE TABLE order_rollup (
  bucket      INTEGER NOT NULL,
  pid         INTEGER NOT NULL,
  account_id  INTEGER NOT NULL,
  pay_type    TEXT    NOT NULL,
  created     INTEGER NOT NULL DEFAULT 0,
  paid_count  INTEGER NOT NULL DEFAULT 0,
  paid_amount INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (bucket, pid, account_id, pay_type)
) WITHOUT ROWID;
-- Daily limits: one account's buckets since the start of its day.
CREATE INDEX order_rollup_account ON order_rollup (account_id, bucket);

INSERT INTO order_rollup (bucket, pid, account_id, pay_type, created)
  SELECT ${bucket("created_at")}, pid, COALESCE(account_id, 0), pay_type, count(*) FROM orders GROUP BY 1, 2, 3, 4;
INSERT INTO order_rollup (bucket, pid, account_id, pay_type, paid_count, paid_amount)
  SELECT ${bucket("paid_at")}, pid, COALESCE(account_id, 0), pay_type, count(*), COALESCE(sum(trade_amount), 0) FROM orders WHERE status = 2 GROUP BY 1, 2, 3, 4
  ON CONFLICT DO UPDATE SET paid_count = excluded.paid_count, paid_amount = excluded.paid_amount;

CREATE TRIGGER order_rollup_insert AFTER INSERT ON orders BEGIN
  ${addCreated}
  ${addPaid}
END;
CREATE TRIGGER order_rollup_created AFTER UPDATE OF pid, account_id, pay_type, created_at ON orders
WHEN ${keyMoved} OR OLD.created_at IS NOT NEW.created_at BEGIN
  ${dropCreated}
  ${addCreated}
END;
CREATE TRIGGER order_rollup_paid AFTER UPDATE OF pid, account_id, pay_type, status, paid_at, trade_amount ON orders
WHEN (OLD.status = 2 OR NEW.status = 2) AND (OLD.status IS NOT NEW.status OR ${keyMoved} OR OLD.paid_at IS NOT NEW.paid_at OR OLD.trade_amount IS NOT NEW.trade_amount) BEGIN
  ${dropPaid}
  ${addPaid}
END;
CREATE TRIGGER order_rollup_delete AFTER DELETE ON orders BEGIN
  ${dropCreated}
  ${dropPaid}
END;

DROP INDEX orders_account_created;
DROP INDEX orders_account_paid;
DROP INDEX orders_paid_day;
DROP INDEX orders_paid_stats;
CREATE INDEX orders_paid_at ON orders (paid_at) WHERE status = 2;
`;
