// PostgreSQL 044: a batch's units without a subtransaction each, while nothing goes wrong. 028's
// batch ran every unit in a BEGIN ... EXCEPTION block of its own, so that a unit that failed was
// rolled back alone: a subtransaction per unit, with its own transaction id for the unit's writes,
// which every other backend's visibility checks then look up among the batch's. Measured with
// `bench/pg-creates.ts` alternated (2026-12-03), a batch without them made 6-41 % more creates in
// 8 of 10 rounds, PostgreSQL's CPU a create 0.39 against 0.445 ms at the medians of six.
//
// Now the batch first runs its units in one block (the quick way): one subtransaction for them all,
// the answers kept in arrays and returned only once every unit went through. When any unit fails
// (accounts busy, a trade_no drawn twice, a lock not had within lock_timeout, a deadlock, a value
// refused), the block is rolled back whole (its orders, stamps and locks with it) and the batch
// runs 043's way: each unit in its own subtransaction, answered busy or error alone, as before.
// A batch whose first unit was busy before (contention: it may wait) goes 043's way from the start.
// The answer rows are 043's; the end row's fail_reason says which way the batch went ('quick' or
// 'careful'; create-batch.ts counts them).
//
// Nothing else changes: the same locks in the same order, each unit waits no longer than
// lock_timeout (3 ms) in the quick way, so 028's argument against deadlocks between batches holds.
// A unit's stamp (nextval) taken in a block that was rolled back is not given back: a gap.

import { BATCH_FOLD } from "./039_rollup_pending.ts";
import { batchHead, CAREFUL_UNITS_043, FOLD_NEW_ROW, rowCall } from "./043_create_row.ts";
import { UNITS_028 } from "./028_create_batch.ts";

/** The answer columns kept per unit in the quick way, with what fills each. */
const KEPT: [string, string, string][] = [
  ["a_i", "INTEGER", "u.i"],
  ["a_outcome", "TEXT", "r.o_outcome"],
  ["a_trade_no", "TEXT", "r.o_trade_no"],
  ["a_status", "INTEGER", "r.o_status"],
  ["a_fail", "TEXT", "r.o_fail_reason"],
  ["a_account_id", "BIGINT", "r.o_account_id"],
  ["a_trade_amount", "BIGINT", "r.o_trade_amount"],
  ["a_order_row", "JSONB", "r.o_order_row"],
  ["a_account_row", "JSONB", "r.o_account_row"],
  ["a_at", "BIGINT", "CASE WHEN r.o_held_us > 0 THEN v_locked END"],
];

export default `
${batchHead(`  v_quick BOOLEAN := NOT COALESCE((p_units -> 0 ->> 'busy')::boolean, false);
${KEPT.map(([a, t]) => `  ${a} ${t}[] := '{}';`).join("\n")}
`)}BEGIN
  IF v_quick THEN
    -- The quick way: every unit in this one block. (No unit waits here: the first is not busy.)
    BEGIN
${UNITS_028}${rowCall("false", "    ")}${FOLD_NEW_ROW}${KEPT.map(([a, , v]) => `    ${a} := array_append(${a}, ${v});`).join("\n")}
      END LOOP;
    EXCEPTION WHEN OTHERS THEN
      -- A unit failed: everything the block did is undone; the units again, 043's way.
      v_quick := false;
    END;
  END IF;

  IF v_quick THEN
    FOR k IN 1 .. cardinality(a_i) LOOP
      i := a_i[k]; outcome := a_outcome[k]; trade_no := a_trade_no[k]; status := a_status[k]; fail_reason := a_fail[k];
      account_id := a_account_id[k]; trade_amount := a_trade_amount[k]; order_row := a_order_row[k]; account_row := a_account_row[k];
      at_us := a_at[k]; error_state := NULL;
      RETURN NEXT;
    END LOOP;
  ELSE
    -- (The variables are not rolled back with the block: the fold's arrays start again.)
    f_at := '{}'; f_pid := '{}'; f_acc := '{}'; f_pt := '{}';
    v_first := true;
${CAREFUL_UNITS_043}  END IF;

  ${BATCH_FOLD}
  -- The batch's end, for the lock hold of its units (each held its account from at_us to here, then the commit).
  i := 0; outcome := 'end'; trade_no := NULL; status := NULL; fail_reason := CASE WHEN v_quick THEN 'quick' ELSE 'careful' END;
  account_id := NULL; trade_amount := NULL; order_row := NULL; account_row := NULL; error_state := NULL;
  at_us := (extract(epoch FROM clock_timestamp() - v_start) * 1000000)::bigint;
  RETURN NEXT;
END
$fn$;`;
