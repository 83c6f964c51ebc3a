// PostgreSQL 043: the batch's create (028) with fewer executor starts a create. A perf profile of
// PostgreSQL under `bench/pg-creates.ts` (2026-12-03) had a sixth of its CPU in starting executors:
// every SQL statement a PL/pgSQL function runs starts one, however small. Each unit ran
// `SELECT ... INTO r FROM xpay_create_order(...)` (a function scan, its rows stored and read back),
// whose own answer was a `RETURN QUERY SELECT`, and the batch's answer for it another; and both
// functions, with xpay_free_amount, set plan_cache_mode on every call (their SET clause: the
// setting parsed, saved and restored each time).
//
// xpay_create_order_row is 026's xpay_create_order (the same locks in the same order, the same reads
// and writes), returning its one row as a composite value: the batch assigns it (`r := ...`, an
// expression, no statement) and answers with RETURN NEXT (no statement); the out_trade_no's lock
// is taken by an assignment too, not a PERFORM.
// plan_cache_mode is set once, on the batch's call; xpay_free_amount's own clause is reset, and
// 026's xpay_create_order (the call of a unit alone, create.ts) keeps its own, which its nested
// calls see. The batch's answer rows are as 039's.

import { ALLOCATION_026, ALLOCATION_VARS_026, CREATE_PARAMS_026, INSERT_026, retriedRow } from "./026_create_function.ts";
import { batchDeclaration, UNITS_028 } from "./028_create_batch.ts";
import { BATCH_FOLD } from "./039_rollup_pending.ts";

/**
 * The batch's declaration (xpay_create_orders as 043 declares it) up to BEGIN, with `more`
 * (declarations of its own) last; 044's batch is declared the same.
 */
export function batchHead(more: string): string {
  return `${batchDeclaration("CREATE OR REPLACE FUNCTION", " SET plan_cache_mode = force_generic_plan", "  v_locked BIGINT;\n")}${more}`;
}

/**
 * A unit's call of xpay_create_order_row from the batch's loop (over `u`), `waiting` its last
 * argument, and the time its account's lock was taken (v_locked); 044's batch runs the same.
 */
export function rowCall(waiting: string, indent: string): string {
  return `${indent}r := xpay_create_order_row(u.tn, u.pid, u.otn, u.family, u.pay_type, u.name, u.amount, u.notify_url, u.return_url, u.param,
${indent}  u.clientip, u.device, u.extra, u.now, u.expire, u.alloc, u.day_start, u.max_offset, u.near, u.step, u.unpaid_since,
${indent}  u.online, u.hb, u.only_account, ${waiting});
${indent}v_locked := (extract(epoch FROM clock_timestamp() - v_start) * 1000000)::bigint - r.o_held_us;
`;
}

/** A unit's new order (not a failed one retried) counted for the batch's fold (044 runs the same). */
export const FOLD_NEW_ROW = `    -- A new row (not a failed one retried, whose update the update trigger counts): folded below.
    IF r.o_outcome = 'created' AND r.o_order_row IS NULL THEN
      f_at := f_at || u.now;
      f_pid := f_pid || u.pid;
      f_acc := f_acc || COALESCE(r.o_account_id, 0);
      f_pt := f_pt || u.pay_type;
    END IF;
`;

/**
 * 043's loop over the batch's units, each in a subtransaction of its own (a unit that fails is
 * rolled back alone and answered busy or error); 044 runs it when its quick way cannot.
 */
export const CAREFUL_UNITS_043 = `${UNITS_028}    LOOP
      v_state := NULL;
      BEGIN
${rowCall("v_waiting", "        ")}      EXCEPTION WHEN OTHERS THEN
        v_state := SQLSTATE;
      END;
      EXIT WHEN NOT v_wait OR v_waiting OR v_state IS DISTINCT FROM 'XP001';
      v_waiting := true;
    END LOOP;
    IF v_wait THEN PERFORM set_config('lock_timeout', '3ms', true); END IF;
    i := u.i;
    IF v_state IS NOT NULL THEN
      -- accounts busy, trade_no drawn twice, a lock not had in time, a deadlock: again in the next batch.
      outcome := CASE WHEN v_state IN ('XP001', 'XP002', '23505', '55P03', '40P01') THEN 'busy' ELSE 'error' END;
      trade_no := NULL; status := NULL; fail_reason := NULL; account_id := NULL; trade_amount := NULL;
      order_row := NULL; account_row := NULL; at_us := NULL; error_state := v_state;
      RETURN NEXT;
      CONTINUE;
    END IF;
${FOLD_NEW_ROW}    outcome := r.o_outcome; trade_no := r.o_trade_no; status := r.o_status; fail_reason := r.o_fail_reason;
    account_id := r.o_account_id; trade_amount := r.o_trade_amount; order_row := r.o_order_row; account_row := r.o_account_row;
    at_us := CASE WHEN r.o_held_us > 0 THEN v_locked END; error_state := NULL;
    RETURN NEXT;
  END LOOP;
`;

export default `
CREATE FUNCTION xpay_create_order_row(
${CREATE_PARAMS_026},
  OUT o_outcome TEXT, OUT o_trade_no TEXT, OUT o_status INTEGER, OUT o_fail_reason TEXT, OUT o_account_id BIGINT,
  OUT o_trade_amount BIGINT, OUT o_order_row JSONB, OUT o_account_row JSONB, OUT o_held_us BIGINT)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
${ALLOCATION_VARS_026}  v_t TEXT;
  v_try TEXT;
  v_fail TEXT;
  v_lock TEXT;
BEGIN
  o_held_us := 0;
  -- A copy of this create on another instance waits here, then finds this order (orders.ts used the same key).
  -- An assignment, not PERFORM: an expression is evaluated without a statement of its own.
  v_lock := pg_advisory_xact_lock(2, hashtext(p_pid::text || E'\\n' || p_out_trade_no))::text;
  SELECT * INTO v_existing FROM orders WHERE pid = p_pid AND out_trade_no = p_out_trade_no;
  v_found := FOUND;
  -- Returned as it is: the core's onExisting decides (a pending or paid one is returned, the rest refused).
  IF v_found AND v_existing.status <> 5 THEN
    o_outcome := 'existing';
    o_order_row := to_jsonb(v_existing);
    o_account_row := (SELECT to_jsonb(a) FROM channel_accounts a WHERE a.id = v_existing.account_id);
    RETURN;
  END IF;

${ALLOCATION_026}
  IF v_acc IS NOT NULL THEN
    UPDATE channel_accounts SET use_seq = nextval('channel_accounts_use_seq') WHERE id = v_acc RETURNING to_jsonb(channel_accounts) INTO o_account_row;
  END IF;
  v_fail := CASE WHEN v_status = 5 THEN v_reason ELSE '' END;
  IF v_found THEN
${retriedRow("o_order_row")}  ELSE
${INSERT_026}  END IF;
  o_outcome := 'created';
  o_trade_no := v_t;
  o_status := v_status;
  o_fail_reason := v_fail;
  o_account_id := v_acc;
  o_trade_amount := v_ta;
  IF v_locked_at IS NOT NULL THEN o_held_us := (extract(epoch FROM clock_timestamp() - v_locked_at) * 1000000)::bigint; END IF;
END
$fn$;

ALTER FUNCTION xpay_free_amount(BIGINT[], BIGINT, INTEGER, BIGINT, BIGINT, BIGINT) RESET plan_cache_mode;

-- 028's batch (with 039's fold), its units through xpay_create_order_row: the same units, locks,
-- waits and answers.
${batchHead("")}BEGIN
${CAREFUL_UNITS_043}
  ${BATCH_FOLD}
  -- The batch's end, for the lock hold of its units (each held its account from at_us to here, then the commit).
  i := 0; outcome := 'end'; trade_no := NULL; status := NULL; fail_reason := NULL; account_id := NULL; trade_amount := NULL;
  order_row := NULL; account_row := NULL; error_state := NULL;
  at_us := (extract(epoch FROM clock_timestamp() - v_start) * 1000000)::bigint;
  RETURN NEXT;
END
$fn$;`;
