// PostgreSQL 039: the income rollup (025) no longer locks its rows in the writes of orders. 025's
// trigger upserted an hour row and a day row per (merchant, account, pay type) inside the payment's
// transaction, and held both until its commit: the account's next payment, on any instance, waited
// for that commit (PostgreSQL's mean time for the payment's UPDATE doubled with the rate,
// 2026-11-30), and so did every create batch of the hour, whose end (028) added its counts to the
// same rows. Now each write appends its signed counts to order_rollup_pending, which nobody
// updates, so nothing waits on it; the store's background (PostgresStore.startBackground) folds the
// pending rows into the hour and day rows once a second, in one short transaction of its own
// (xpay_rollup_fold). A reading adds the pending rows to the rollup's: one statement sees a fold
// whole or not at all, so no count is seen twice or missed. SQLite keeps 025's trigger: its writes
// are one at a time anyway.
//
// A pending row is per UTC hour; the day is the hour's day (86400 is a multiple of 3600). The fold
// takes the advisory lock Lock.rollupFold (tx.ts) or returns: one fold at a time across instances.
// It adds the hour rows, then the day rows, each in the rows' sorted order, as the create batch
// took them (028): the two never wait on each other in a cycle.
import { orderRollupApply } from "./025_order_rollup.ts";
import { createOrdersFunction } from "./028_create_batch.ts";
import { Lock } from "../tx.ts";

/** One pending row: the hour of `at`, the row's key, and `counts` (column, value). */
const pending = (r: "NEW" | "OLD", at: string, counts: [string, string][]) =>
  `INSERT INTO order_rollup_pending (bucket, pid, account_id, pay_type, ${counts.map(([c]) => c).join(", ")})
        VALUES (${r}.${at} - ${r}.${at} % 3600, ${r}.pid, COALESCE(${r}.account_id, 0), ${r}.pay_type, ${counts.map(([, v]) => v).join(", ")});`;

/** The batch's fold of its new orders into the pending rows (043's batch runs the same). */
export const BATCH_FOLD = `-- The batch's new orders, counted as pending rows (039): no rollup row is locked.
  PERFORM set_config('lock_timeout', '0', true);
  INSERT INTO order_rollup_pending (bucket, pid, account_id, pay_type, created)
    SELECT f.at - f.at % 3600, f.pid, f.acc, f.pt, count(*) FROM unnest(f_at, f_pid, f_acc, f_pt) AS f(at, pid, acc, pt)
    GROUP BY 1, 2, 3, 4;`;

const add = (t: string) => `ON CONFLICT (bucket, pid, account_id, pay_type) DO UPDATE
      SET created = ${t}.created + excluded.created, paid_count = ${t}.paid_count + excluded.paid_count, paid_amount = ${t}.paid_amount + excluded.paid_amount`;

export default `
-- The rollup's columns, without its key: rows are only appended, and folded away whole.
CREATE TABLE order_rollup_pending (LIKE order_rollup_hour INCLUDING DEFAULTS);

${orderRollupApply("CREATE OR REPLACE FUNCTION", {
  oldCreated: pending("OLD", "created_at", [["created", "-1"]]),
  oldPaid: pending("OLD", "paid_at", [["paid_count", "-1"], ["paid_amount", "-COALESCE(OLD.trade_amount, 0)"]]),
  newCreated: pending("NEW", "created_at", [["created", "1"]]),
  newPaid: pending("NEW", "paid_at", [["paid_count", "1"], ["paid_amount", "COALESCE(NEW.trade_amount, 0)"]]),
})}
${createOrdersFunction("CREATE OR REPLACE FUNCTION", BATCH_FOLD)}

-- Folds every pending row committed so far; returns how many, or -1 when another fold is running.
CREATE FUNCTION xpay_rollup_fold() RETURNS BIGINT LANGUAGE plpgsql AS $fn$
DECLARE
  v_b BIGINT[];
  v_pid BIGINT[];
  v_acc BIGINT[];
  v_pt TEXT[];
  v_c BIGINT[];
  v_n BIGINT[];
  v_a BIGINT[];
  v_rows BIGINT;
BEGIN
  IF NOT pg_try_advisory_xact_lock(${Lock.rollupFold}, 0) THEN RETURN -1; END IF;
  WITH d AS (DELETE FROM order_rollup_pending RETURNING *),
  g AS (SELECT bucket, pid, account_id, pay_type, sum(created) AS c, sum(paid_count) AS n, sum(paid_amount) AS a, count(*) AS k
        FROM d GROUP BY 1, 2, 3, 4)
  SELECT array_agg(bucket ORDER BY bucket, pid, account_id, pay_type), array_agg(pid ORDER BY bucket, pid, account_id, pay_type),
         array_agg(account_id ORDER BY bucket, pid, account_id, pay_type), array_agg(pay_type ORDER BY bucket, pid, account_id, pay_type),
         array_agg(c ORDER BY bucket, pid, account_id, pay_type), array_agg(n ORDER BY bucket, pid, account_id, pay_type),
         array_agg(a ORDER BY bucket, pid, account_id, pay_type), COALESCE(sum(k), 0)
    INTO v_b, v_pid, v_acc, v_pt, v_c, v_n, v_a, v_rows FROM g;
  IF v_rows = 0 THEN RETURN 0; END IF;
  INSERT INTO order_rollup_hour AS t (bucket, pid, account_id, pay_type, created, paid_count, paid_amount)
    SELECT * FROM unnest(v_b, v_pid, v_acc, v_pt, v_c, v_n, v_a) AS f(b, pid, acc, pt, c, n, a) ORDER BY 1, 2, 3, 4
    ${add("t")};
  INSERT INTO order_rollup_day AS t (bucket, pid, account_id, pay_type, created, paid_count, paid_amount)
    SELECT f.b - f.b % 86400, f.pid, f.acc, f.pt, sum(f.c), sum(f.n), sum(f.a) FROM unnest(v_b, v_pid, v_acc, v_pt, v_c, v_n, v_a) AS f(b, pid, acc, pt, c, n, a)
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ${add("t")};
  RETURN v_rows;
END
$fn$;
`;
