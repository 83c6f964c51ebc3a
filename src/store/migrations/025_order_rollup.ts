// Income and counts kept as they happen, instead of counted from orders: `xpay stats`, the
// dashboard, the merchants list, accounts-today and the allocator's daily limits read rows per UTC
// hour and per UTC day and (merchant, account, pay type) here, and count from orders only the
// minutes at the ends of a range that no whole hour covers (core/stats/rollup-pieces.ts). Triggers
// keep both tables in the same transaction as every write of orders (create, retry, pay-type pick,
// pay, late pay, assignment, manual pay, a copy's inserts), so no code path can forget them.
// An order counts `created` in the hour (day) of created_at under its (pid, account, pay type) of
// now, and, while status = 2, `paid_count`/`paid_amount` (trade_amount) in the hour (day) of
// paid_at (a paid row without paid_at, which no write path makes, counts as paid nowhere, as the
// range counts over orders read it). account_id 0: no account (failed, unpicked). Days are UTC days: a day of the operator's
// zone is read as whole UTC days and hours plus the minutes of orders at its ends.
// The indexes of orders that only stats read go: orders_account_created (a write per create),
// orders_account_paid and orders_paid_stats (written per payment). orders_paid_day stays: the
// reserved-amounts view walks it (slots.ts), though the daily limits now read the rollup.
// orders_created_stats stays (the orders list's totals and its unfiltered page, and the minutes at
// a range's ends); paid orders keep a narrow paid_at index (the list's paid-time filter, those minutes).
const TABLES = [["order_rollup_hour", 3600], ["order_rollup_day", 86400]] as const;

const bucket = (col: string, width: number) => `${col} - ${col} % ${width}`;
const key = (r: "NEW" | "OLD") => `pid = ${r}.pid AND account_id = COALESCE(${r}.account_id, 0) AND pay_type = ${r}.pay_type`;
const each = (f: (table: string, width: number) => string) => TABLES.map(([t, w]) => f(t, w)).join("\n  ");
const addCreated = each((t, w) => `INSERT INTO ${t} (bucket, pid, account_id, pay_type, created)
    VALUES (${bucket("NEW.created_at", w)}, NEW.pid, COALESCE(NEW.account_id, 0), NEW.pay_type, 1)
    ON CONFLICT DO UPDATE SET created = created + 1;`);
const addPaid = each((t, w) => `INSERT INTO ${t} (bucket, pid, account_id, pay_type, paid_count, paid_amount)
    SELECT ${bucket("NEW.paid_at", w)}, NEW.pid, COALESCE(NEW.account_id, 0), NEW.pay_type, 1, COALESCE(NEW.trade_amount, 0) WHERE NEW.status = 2 AND NEW.paid_at IS NOT NULL
    ON CONFLICT DO UPDATE SET paid_count = paid_count + 1, paid_amount = paid_amount + excluded.paid_amount;`);
const dropCreated = each((t, w) => `UPDATE ${t} SET created = created - 1 WHERE bucket = ${bucket("OLD.created_at", w)} AND ${key("OLD")};`);
const dropPaid = each((t, w) => `UPDATE ${t} SET paid_count = paid_count - 1, paid_amount = paid_amount - COALESCE(OLD.trade_amount, 0)
    WHERE OLD.status = 2 AND bucket = ${bucket("OLD.paid_at", w)} AND ${key("OLD")};`);
const keyMoved = "OLD.pid IS NOT NEW.pid OR OLD.account_id IS NOT NEW.account_id OR OLD.pay_type IS NOT NEW.pay_type";

const table = (t: string, w: number) => `
CREATE TABLE ${t} (
  bucket      INTEGER NOT NULL,
  pid         INTEGER NOT NULL,
  account_id  INTEGER NOT NULL,
  pay_type    TEXT    NOT NULL,
  created     INTEGER NOT NULL DEFAULT 0,
  paid_count  INTEGER NOT NULL DEFAULT 0,
  paid_amount INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (bucket, pid, account_id, pay_type)
) WITHOUT ROWID;
INSERT INTO ${t} (bucket, pid, account_id, pay_type, created)
  SELECT ${bucket("created_at", w)}, pid, COALESCE(account_id, 0), pay_type, count(*) FROM orders GROUP BY 1, 2, 3, 4;
INSERT INTO ${t} (bucket, pid, account_id, pay_type, paid_count, paid_amount)
  SELECT ${bucket("paid_at", w)}, pid, COALESCE(account_id, 0), pay_type, count(*), COALESCE(sum(trade_amount), 0) FROM orders WHERE status = 2 AND paid_at IS NOT NULL GROUP BY 1, 2, 3, 4
  ON CONFLICT DO UPDATE SET paid_count = excluded.paid_count, paid_amount = excluded.paid_amount;`;

export default `
${TABLES.map(([t, w]) => table(t, w)).join("\n")}
-- Daily limits: one account's hours since the start of its day.
CREATE INDEX order_rollup_hour_account ON order_rollup_hour (account_id, bucket);

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
DROP INDEX orders_paid_stats;
CREATE INDEX orders_paid_at ON orders (paid_at) WHERE status = 2;
`;
