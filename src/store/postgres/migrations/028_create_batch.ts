// PostgreSQL 028: creates in batches (group commit, as SQLite's grouped writes). xpay_create_orders
// takes the creates one instance received in one turn of its event loop (src/store/postgres/
// create-batch.ts, at most 60) and runs each through 026's xpay_create_order in its own
// subtransaction, all in the call's one transaction: one round trip, one commit, one WAL flush per
// batch. A unit that fails is rolled back alone and answered on its own (busy: the caller puts it
// in its next batch; any other error: the caller runs it alone, which raises it as before).
//
// No deadlock between batches: a batch waits for no lock longer than lock_timeout (3 ms; a lock
// it cannot get makes its unit busy), except (a) its first unit when that unit was busy before,
// which waits holding nothing but its own out_trade_no lock, as 026's waiting call does, and
// (b) the rollup rows at its end, which every batch takes in one sorted order and after which
// it waits for nothing. So a batch that waits is never waited for by one that waits for it.
//
// The income rollups (025) are folded: the insert trigger stands aside inside the batch
// (xpay.rollup_folded) and the batch adds its created counts per (bucket, pid, account, pay type)
// in one statement per table at its end: creates without a pay type, which share one row per
// merchant and hour, update that hot row once per batch instead of once per create, and hold it
// only from the batch's end to its commit.
/**
 * The batch's created counts, added to both rollups at its end: the rows in one order for every
 * batch, waiting as long as it takes (nothing waits for a batch's end). Migration 039 adds them to
 * the pending rows instead (its header says why).
 */
const FOLD_028 = `-- The rollup rows, in one order for every batch, waiting as long as it takes (nothing waits for a batch's end).
  PERFORM set_config('lock_timeout', '0', true);
  ${[["order_rollup_hour", 3600], ["order_rollup_day", 86400]].map(([t, w]) => `INSERT INTO ${t} AS t (bucket, pid, account_id, pay_type, created)
    SELECT f.at - f.at % ${w}, f.pid, f.acc, f.pt, count(*) FROM unnest(f_at, f_pid, f_acc, f_pt) AS f(at, pid, acc, pt)
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (bucket, pid, account_id, pay_type) DO UPDATE SET created = t.created + excluded.created;`).join("\n  ")}`;

/**
 * The loop over a batch's units (the JSON the caller sends) up to each unit's call, with the first
 * unit's wait when it was busy before; migration 043's batch runs the same.
 */
export const UNITS_028 = `  FOR u IN SELECT * FROM jsonb_to_recordset(p_units) AS x(
      i INTEGER, tn TEXT[], pid BIGINT, otn TEXT, family TEXT, pay_type TEXT, name TEXT, amount BIGINT, notify_url TEXT, return_url TEXT,
      param TEXT, clientip TEXT, device TEXT, extra TEXT, now BIGINT, expire BIGINT, alloc BOOLEAN, day_start BIGINT, max_offset BIGINT,
      near BIGINT, step INTEGER, unpaid_since BIGINT, online BOOLEAN, hb BIGINT, only_account BIGINT, busy BOOLEAN)
  LOOP
    -- Only the batch's first unit may wait, and only one that was busy before: it holds nothing yet.
    v_wait := v_first AND u.busy;
    v_first := false;
    IF v_wait THEN PERFORM set_config('lock_timeout', '0', true); END IF;
    v_waiting := false;
`;

export default `
DROP TRIGGER order_rollup_insert ON orders;
CREATE TRIGGER order_rollup_insert AFTER INSERT ON orders FOR EACH ROW
  WHEN (current_setting('xpay.rollup_folded', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION order_rollup_apply();

${createOrdersFunction("CREATE FUNCTION", FOLD_028)}`;

/**
 * xpay_create_orders's declaration up to BEGIN: `head` how it is declared, `settings` more SET
 * clauses, `vars` more variables before the fold's arrays (043 and 044 declare theirs through it).
 */
export function batchDeclaration(head: "CREATE FUNCTION" | "CREATE OR REPLACE FUNCTION", settings: string, vars: string): string {
  return `${head} xpay_create_orders(p_units JSONB)
RETURNS TABLE (i INTEGER, outcome TEXT, trade_no TEXT, status INTEGER, fail_reason TEXT, account_id BIGINT, trade_amount BIGINT,
               order_row JSONB, account_row JSONB, at_us BIGINT, error_state TEXT)
LANGUAGE plpgsql SET lock_timeout = '3ms' SET xpay.rollup_folded = 'on'${settings} AS $fn$
#variable_conflict use_column
DECLARE
  u RECORD;
  r RECORD;
  v_start TIMESTAMPTZ := clock_timestamp();
  v_first BOOLEAN := true;
  v_wait BOOLEAN;
  v_waiting BOOLEAN;
  v_state TEXT;
${vars}  f_at BIGINT[] := '{}';
  f_pid BIGINT[] := '{}';
  f_acc BIGINT[] := '{}';
  f_pt TEXT[] := '{}';
`;
}

/**
 * xpay_create_orders as 028 wrote it, with `fold` as the statements that count the batch's new
 * orders (from the arrays f_at, f_pid, f_acc, f_pt) at its end; `head` is how it is declared.
 */
export function createOrdersFunction(head: "CREATE FUNCTION" | "CREATE OR REPLACE FUNCTION", fold: string): string {
  return `${batchDeclaration(head, "", "")}BEGIN
${UNITS_028}    LOOP
      v_state := NULL;
      r := NULL;
      BEGIN
        SELECT c.outcome, c.trade_no, c.status, c.fail_reason, c.account_id, c.trade_amount, c.order_row, c.account_row, c.held_us,
               (extract(epoch FROM clock_timestamp() - v_start) * 1000000)::bigint - c.held_us AS locked_us INTO r
        FROM xpay_create_order(u.tn, u.pid, u.otn, u.family, u.pay_type, u.name, u.amount, u.notify_url, u.return_url, u.param,
          u.clientip, u.device, u.extra, u.now, u.expire, u.alloc, u.day_start, u.max_offset, u.near, u.step, u.unpaid_since,
          u.online, u.hb, u.only_account, v_waiting) c;
      EXCEPTION WHEN OTHERS THEN
        v_state := SQLSTATE;
      END;
      -- 026's caller calls again waiting when the function gave up holding a full account (XP001).
      -- (IS DISTINCT FROM: after a success v_state is NULL, and a NULL test would not exit.)
      EXIT WHEN NOT v_wait OR v_waiting OR v_state IS DISTINCT FROM 'XP001';
      v_waiting := true;
    END LOOP;
    IF v_wait THEN PERFORM set_config('lock_timeout', '3ms', true); END IF;
    IF v_state IS NOT NULL THEN
      -- accounts busy, trade_no drawn twice, a lock not had in time, a deadlock: again in the next batch.
      RETURN QUERY SELECT u.i, CASE WHEN v_state IN ('XP001', 'XP002', '23505', '55P03', '40P01') THEN 'busy' ELSE 'error' END,
        NULL::text, NULL::int, NULL::text, NULL::bigint, NULL::bigint, NULL::jsonb, NULL::jsonb, NULL::bigint, v_state;
      CONTINUE;
    END IF;
    -- A new row (not a failed one retried, whose update the update trigger counts): folded below.
    IF r.outcome = 'created' AND r.order_row IS NULL THEN
      f_at := f_at || u.now;
      f_pid := f_pid || u.pid;
      f_acc := f_acc || COALESCE(r.account_id, 0);
      f_pt := f_pt || u.pay_type;
    END IF;
    RETURN QUERY SELECT u.i, r.outcome, r.trade_no, r.status, r.fail_reason, r.account_id, r.trade_amount, r.order_row, r.account_row,
      CASE WHEN r.held_us > 0 THEN r.locked_us END, NULL::text;
  END LOOP;

  ${fold}
  -- The batch's end, for the lock hold of its units (each held its account from at_us to here, then the commit).
  RETURN QUERY SELECT 0, 'end'::text, NULL::text, NULL::int, NULL::text, NULL::bigint, NULL::bigint, NULL::jsonb, NULL::jsonb,
    (extract(epoch FROM clock_timestamp() - v_start) * 1000000)::bigint, NULL::text;
END
$fn$;
`;
}
