// PostgreSQL 025, as SQLite's (../../migrations/025_order_rollup.ts says why): the income rollup per
// UTC hour and per UTC day and (merchant, account, pay type), kept by a row trigger in the
// transaction of every write of orders, so any statement or server-side function that inserts or
// pays an order keeps it without knowing about it. The update trigger's WHEN skips the writes that
// move nothing (the expiry sweep, a close) without entering PL/pgSQL. The stats-only indexes go;
// the orders list keeps orders_created_stats for its totals, and paid orders a narrow paid_at
// index. orders_paid_day stays, as on SQLite: the reserved-amounts view and the PostgreSQL
// create's daily limits read it.
const TABLES = [["order_rollup_hour", 3600], ["order_rollup_day", 86400]] as const;

const bucket = (col: string, width: number) => `${col} - ${col} % ${width}`;
const key = (r: "NEW" | "OLD") => `pid = ${r}.pid AND account_id = COALESCE(${r}.account_id, 0) AND pay_type = ${r}.pay_type`;
const each = (f: (table: string, width: number) => string) => TABLES.map(([t, w]) => f(t, w)).join("\n      ");

const table = (t: string, w: number) => `
CREATE TABLE ${t} (
  bucket      BIGINT NOT NULL,
  pid         BIGINT NOT NULL,
  account_id  BIGINT NOT NULL,
  pay_type    TEXT   NOT NULL,
  created     BIGINT NOT NULL DEFAULT 0,
  paid_count  BIGINT NOT NULL DEFAULT 0,
  paid_amount BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (bucket, pid, account_id, pay_type)
);
INSERT INTO ${t} (bucket, pid, account_id, pay_type, created)
  SELECT ${bucket("created_at", w)}, pid, COALESCE(account_id, 0), pay_type, count(*) FROM orders GROUP BY 1, 2, 3, 4;
INSERT INTO ${t} (bucket, pid, account_id, pay_type, paid_count, paid_amount)
  SELECT ${bucket("paid_at", w)}, pid, COALESCE(account_id, 0), pay_type, count(*), COALESCE(sum(trade_amount), 0) FROM orders WHERE status = 2 AND paid_at IS NOT NULL GROUP BY 1, 2, 3, 4
  ON CONFLICT (bucket, pid, account_id, pay_type) DO UPDATE SET paid_count = excluded.paid_count, paid_amount = excluded.paid_amount;`;

/** The statements order_rollup_apply runs for each count a write of orders moves (each with OLD or NEW). */
export interface RollupWrites {
  /** The old row's order no longer counts as created in its hour (a delete, a moved key or time). */
  oldCreated: string;
  /** The old row's payment no longer counts in its paid hour. */
  oldPaid: string;
  newCreated: string;
  newPaid: string;
}

/**
 * The rollup trigger's function as 025 wrote it: which counts a write of orders moves, and `w`'s
 * statements for each (025: upserts of the rollup rows; 039: pending rows).
 */
export function orderRollupApply(head: "CREATE FUNCTION" | "CREATE OR REPLACE FUNCTION", w: RollupWrites): string {
  return `${head} order_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  created_moved boolean;
  paid_moved boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    created_moved := true;
    paid_moved := NEW.status = 2;
  ELSIF TG_OP = 'DELETE' THEN
    created_moved := true;
    paid_moved := OLD.status = 2;
  ELSE
    created_moved := (OLD.pid, OLD.account_id, OLD.pay_type, OLD.created_at) IS DISTINCT FROM (NEW.pid, NEW.account_id, NEW.pay_type, NEW.created_at);
    paid_moved := (OLD.status = 2 OR NEW.status = 2) AND (OLD.status, OLD.pid, OLD.account_id, OLD.pay_type, OLD.paid_at, OLD.trade_amount)
      IS DISTINCT FROM (NEW.status, NEW.pid, NEW.account_id, NEW.pay_type, NEW.paid_at, NEW.trade_amount);
  END IF;
  IF TG_OP <> 'INSERT' THEN
    IF created_moved THEN
      ${w.oldCreated}
    END IF;
    IF paid_moved AND OLD.status = 2 AND OLD.paid_at IS NOT NULL THEN
      ${w.oldPaid}
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF created_moved THEN
      ${w.newCreated}
    END IF;
    IF paid_moved AND NEW.status = 2 AND NEW.paid_at IS NOT NULL THEN
      ${w.newPaid}
    END IF;
  END IF;
  RETURN NULL;
END
$fn$;
`;
}

const WRITES_025: RollupWrites = {
  oldCreated: `${each((t, w) => `UPDATE ${t} SET created = created - 1 WHERE bucket = ${bucket("OLD.created_at", w)} AND ${key("OLD")};`)}`,
  oldPaid: `${each((t, w) => `UPDATE ${t} SET paid_count = paid_count - 1, paid_amount = paid_amount - COALESCE(OLD.trade_amount, 0)
        WHERE bucket = ${bucket("OLD.paid_at", w)} AND ${key("OLD")};`)}`,
  newCreated: `${each((t, w) => `INSERT INTO ${t} (bucket, pid, account_id, pay_type, created) VALUES (${bucket("NEW.created_at", w)}, NEW.pid, COALESCE(NEW.account_id, 0), NEW.pay_type, 1)
        ON CONFLICT (bucket, pid, account_id, pay_type) DO UPDATE SET created = ${t}.created + 1;`)}`,
  newPaid: `${each((t, w) => `INSERT INTO ${t} (bucket, pid, account_id, pay_type, paid_count, paid_amount)
        VALUES (${bucket("NEW.paid_at", w)}, NEW.pid, COALESCE(NEW.account_id, 0), NEW.pay_type, 1, COALESCE(NEW.trade_amount, 0))
        ON CONFLICT (bucket, pid, account_id, pay_type) DO UPDATE
          SET paid_count = ${t}.paid_count + 1, paid_amount = ${t}.paid_amount + excluded.paid_amount;`)}`,
};

export default `
${TABLES.map(([t, w]) => table(t, w)).join("\n")}
CREATE INDEX order_rollup_hour_account ON order_rollup_hour (account_id, bucket);

${orderRollupApply("CREATE FUNCTION", WRITES_025)}
CREATE TRIGGER order_rollup_insert AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION order_rollup_apply();
CREATE TRIGGER order_rollup_update AFTER UPDATE OF pid, account_id, pay_type, created_at, status, paid_at, trade_amount ON orders FOR EACH ROW
  WHEN ((OLD.pid, OLD.account_id, OLD.pay_type, OLD.created_at) IS DISTINCT FROM (NEW.pid, NEW.account_id, NEW.pay_type, NEW.created_at)
    OR ((OLD.status = 2 OR NEW.status = 2) AND (OLD.status, OLD.paid_at, OLD.trade_amount) IS DISTINCT FROM (NEW.status, NEW.paid_at, NEW.trade_amount)))
  EXECUTE FUNCTION order_rollup_apply();
CREATE TRIGGER order_rollup_delete AFTER DELETE ON orders FOR EACH ROW EXECUTE FUNCTION order_rollup_apply();

DROP INDEX orders_account_created;
DROP INDEX orders_account_paid;
DROP INDEX orders_paid_stats;
CREATE INDEX orders_paid_at ON orders (paid_at) WHERE status = 2;
`;
