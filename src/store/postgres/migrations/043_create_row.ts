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
/** 039's fold of the batch's new orders into the rollup's pending rows (its header says why). */
const BATCH_FOLD = `-- The batch's new orders, counted as pending rows (039): no rollup row is locked.
  PERFORM set_config('lock_timeout', '0', true);
  INSERT INTO order_rollup_pending (bucket, pid, account_id, pay_type, created)
    SELECT f.at - f.at % 3600, f.pid, f.acc, f.pt, count(*) FROM unnest(f_at, f_pid, f_acc, f_pt) AS f(at, pid, acc, pt)
    GROUP BY 1, 2, 3, 4;`;

export default `
CREATE FUNCTION xpay_create_order_row(
  p_trade_nos TEXT[], p_pid BIGINT, p_out_trade_no TEXT, p_family TEXT, p_pay_type TEXT, p_name TEXT, p_amount BIGINT,
  p_notify_url TEXT, p_return_url TEXT, p_param TEXT, p_clientip TEXT, p_device TEXT, p_extra TEXT, p_now BIGINT, p_expire BIGINT,
  p_allocate BOOLEAN, p_day_start BIGINT, p_max_offset BIGINT, p_near BIGINT, p_step INTEGER, p_unpaid_since BIGINT,
  p_require_online BOOLEAN, p_heartbeat_timeout BIGINT, p_only_account BIGINT, p_waiting BOOLEAN,
  OUT o_outcome TEXT, OUT o_trade_no TEXT, OUT o_status INTEGER, OUT o_fail_reason TEXT, OUT o_account_id BIGINT,
  OUT o_trade_amount BIGINT, OUT o_order_row JSONB, OUT o_account_row JSONB, OUT o_held_us BIGINT)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  v_existing orders%ROWTYPE;
  v_found BOOLEAN;
  c RECORD;
  v_any BOOLEAN := false;
  v_busy BIGINT[] := '{}';
  v_tried BIGINT[] := '{}';
  v_rg BIGINT;
  v_held BOOLEAN := false;
  v_reason TEXT := '';
  v_group BIGINT[];
  v_got INTEGER;
  v_self BOOLEAN;
  v_n INTEGER;
  v_start INTEGER;
  v_id BIGINT;
  v_acc BIGINT;
  v_ta BIGINT;
  v_status INTEGER := 1;
  v_locked_at TIMESTAMPTZ;
  v_t TEXT;
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

  IF p_allocate AND NOT p_waiting THEN
    -- The quick way (026): the first fitting account no other create holds, its group next, without waiting.
    LOOP
      SELECT a.id, a.report_group INTO v_id, v_rg FROM channel_accounts a
      WHERE a.enabled = 1 AND a.pay_type = p_pay_type AND a.pid IN (0, p_pid) AND (p_only_account IS NULL OR a.id = p_only_account)
        AND a.id <> ALL (v_tried)
        AND (a.min_amount = 0 OR p_amount >= a.min_amount) AND (a.max_amount = 0 OR p_amount <= a.max_amount)
        AND CASE WHEN a.day_amount = 0 THEN true ELSE COALESCE((SELECT SUM(o.trade_amount) FROM orders o
              WHERE o.account_id = a.id AND o.status = 2 AND o.paid_at >= p_day_start), 0) + p_amount <= a.day_amount END
        AND (NOT p_require_online OR p_now - a.last_seen_at <= p_heartbeat_timeout)
      ORDER BY a.sort, a.use_seq, a.id LIMIT 1 FOR UPDATE SKIP LOCKED;
      EXIT WHEN NOT FOUND;
      v_locked_at := clock_timestamp();
      v_tried := v_tried || v_id;
      v_held := true;
      IF v_rg = 0 THEN
        v_group := ARRAY[v_id];
      ELSE
        v_group := xpay_report_group(v_id);
        SELECT count(*) INTO v_got FROM (SELECT id FROM channel_accounts WHERE id = ANY (v_group) AND id <> v_id ORDER BY id FOR UPDATE SKIP LOCKED) l;
        CONTINUE WHEN v_got < cardinality(v_group) - 1;
      END IF;
      v_ta := xpay_free_amount(v_group, p_amount, p_step, p_near, p_max_offset, p_unpaid_since);
      IF v_ta IS NOT NULL THEN v_acc := v_id; EXIT; END IF;
      v_locked_at := NULL;
    END LOOP;
  END IF;

  IF p_allocate AND v_acc IS NULL THEN
    -- The rule's order (026): sort, then least recently used; busy ones set aside, then waited for.
    FOR c IN
      SELECT a.id, a.report_group, a.min_amount, a.max_amount, a.day_amount, a.last_seen_at,
             CASE WHEN a.day_amount > 0 THEN COALESCE((SELECT SUM(o.trade_amount) FROM orders o
               WHERE o.account_id = a.id AND o.status = 2 AND o.paid_at >= p_day_start), 0) ELSE 0 END AS paid_today
      FROM channel_accounts a
      WHERE a.enabled = 1 AND a.pay_type = p_pay_type AND a.pid IN (0, p_pid) AND (p_only_account IS NULL OR a.id = p_only_account)
      ORDER BY a.sort, a.use_seq, a.id
    LOOP
      v_any := true;
      IF c.min_amount > 0 AND p_amount < c.min_amount THEN v_reason := 'amount below every account''s minimum'; CONTINUE; END IF;
      IF c.max_amount > 0 AND p_amount > c.max_amount THEN v_reason := 'amount above every account''s maximum'; CONTINUE; END IF;
      IF c.day_amount > 0 AND c.paid_today + p_amount > c.day_amount THEN v_reason := 'daily limit reached on every account'; CONTINUE; END IF;
      IF p_require_online AND p_now - c.last_seen_at > p_heartbeat_timeout THEN v_reason := 'no account has an online monitoring client'; CONTINUE; END IF;
      v_reason := 'no free payable amount on any account; try again later';
      IF p_waiting OR NOT v_held THEN v_busy := v_busy || c.id; CONTINUE; END IF;
      v_group := CASE WHEN c.report_group = 0 THEN ARRAY[c.id] ELSE xpay_report_group(c.id) END;
      SELECT count(*), COALESCE(bool_or(l.id = c.id AND l.enabled = 1 AND l.pay_type = p_pay_type AND l.report_group = c.report_group), false) INTO v_got, v_self
      FROM (SELECT id, enabled, pay_type, report_group FROM channel_accounts WHERE id = ANY (v_group) ORDER BY id FOR UPDATE SKIP LOCKED) l;
      IF v_got > 0 THEN v_held := true; END IF;
      IF v_got < cardinality(v_group) OR NOT v_self THEN v_busy := v_busy || c.id; CONTINUE; END IF;
      v_locked_at := clock_timestamp();
      v_ta := xpay_free_amount(v_group, p_amount, p_step, p_near, p_max_offset, p_unpaid_since);
      IF v_ta IS NOT NULL THEN v_acc := c.id; EXIT; END IF;
    END LOOP;
    IF NOT v_any THEN v_reason := 'no enabled account for pay type ' || p_pay_type; END IF;
    IF v_acc IS NULL AND cardinality(v_busy) > 0 THEN
      -- Holding a full one, given up first (XP001: the caller calls again, waiting); else one busy
      -- group at a time, dealt round-robin to the waiters by their transaction ids (026).
      IF v_held THEN RAISE EXCEPTION 'xpay: accounts busy' USING ERRCODE = 'XP001'; END IF;
      v_n := cardinality(v_busy);
      v_start := (txid_current() % v_n)::int;
      FOR k IN 0..v_n - 1 LOOP
        v_id := v_busy[1 + (v_start + k) % v_n];
        v_group := xpay_report_group(v_id);
        BEGIN
          SELECT COALESCE(bool_or(l.id = v_id AND l.enabled = 1 AND l.pay_type = p_pay_type), false) INTO v_self
          FROM (SELECT id, enabled, pay_type, report_group FROM channel_accounts WHERE id = ANY (v_group) ORDER BY id FOR UPDATE) l;
          v_locked_at := clock_timestamp();
          v_ta := CASE WHEN v_self THEN xpay_free_amount(v_group, p_amount, p_step, p_near, p_max_offset, p_unpaid_since) END;
          IF v_ta IS NULL THEN RAISE EXCEPTION 'xpay: full' USING ERRCODE = 'XP003'; END IF;
          v_acc := v_id;
        EXCEPTION WHEN SQLSTATE 'XP003' THEN
          v_locked_at := NULL;
        END;
        EXIT WHEN v_acc IS NOT NULL;
      END LOOP;
    END IF;
    IF v_acc IS NULL THEN v_status := 5; END IF;
  END IF;

  IF v_acc IS NOT NULL THEN
    UPDATE channel_accounts SET use_seq = nextval('channel_accounts_use_seq') WHERE id = v_acc RETURNING to_jsonb(channel_accounts) INTO o_account_row;
  END IF;
  v_fail := CASE WHEN v_status = 5 THEN v_reason ELSE '' END;
  IF v_found THEN
    -- A failed create retried on its own row, allocated again.
    UPDATE orders SET family = p_family, pay_type = p_pay_type, name = p_name, amount = p_amount, notify_url = p_notify_url,
      return_url = p_return_url, param = p_param, clientip = p_clientip, device = p_device, extra = p_extra, created_at = p_now,
      expire_time = p_expire, status = v_status, fail_reason = v_fail, account_id = v_acc, trade_amount = v_ta
    WHERE trade_no = v_existing.trade_no RETURNING to_jsonb(orders) INTO o_order_row;
  ELSE
    -- The first trade_no drawn that no order has (026: not ON CONFLICT, not read back).
    FOREACH v_try IN ARRAY p_trade_nos LOOP
      PERFORM 1 FROM orders WHERE trade_no = v_try;
      IF NOT FOUND THEN v_t := v_try; EXIT; END IF;
    END LOOP;
    IF v_t IS NULL THEN RAISE EXCEPTION 'xpay: trade_no collision' USING ERRCODE = 'XP002'; END IF;
    INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, fail_reason, account_id, trade_amount,
                        notify_url, return_url, param, clientip, device, extra, created_at, expire_time)
    VALUES (v_t, p_pid, p_out_trade_no, p_family, p_pay_type, p_name, p_amount, v_status, v_fail,
            v_acc, v_ta, p_notify_url, p_return_url, p_param, p_clientip, p_device, p_extra, p_now, p_expire);
  END IF;
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
CREATE OR REPLACE FUNCTION xpay_create_orders(p_units JSONB)
RETURNS TABLE (i INTEGER, outcome TEXT, trade_no TEXT, status INTEGER, fail_reason TEXT, account_id BIGINT, trade_amount BIGINT,
               order_row JSONB, account_row JSONB, at_us BIGINT, error_state TEXT)
LANGUAGE plpgsql SET lock_timeout = '3ms' SET xpay.rollup_folded = 'on' SET plan_cache_mode = force_generic_plan AS $fn$
#variable_conflict use_column
DECLARE
  u RECORD;
  r RECORD;
  v_start TIMESTAMPTZ := clock_timestamp();
  v_first BOOLEAN := true;
  v_wait BOOLEAN;
  v_waiting BOOLEAN;
  v_state TEXT;
  v_locked BIGINT;
  f_at BIGINT[] := '{}';
  f_pid BIGINT[] := '{}';
  f_acc BIGINT[] := '{}';
  f_pt TEXT[] := '{}';
BEGIN
  FOR u IN SELECT * FROM jsonb_to_recordset(p_units) AS x(
      i INTEGER, tn TEXT[], pid BIGINT, otn TEXT, family TEXT, pay_type TEXT, name TEXT, amount BIGINT, notify_url TEXT, return_url TEXT,
      param TEXT, clientip TEXT, device TEXT, extra TEXT, now BIGINT, expire BIGINT, alloc BOOLEAN, day_start BIGINT, max_offset BIGINT,
      near BIGINT, step INTEGER, unpaid_since BIGINT, online BOOLEAN, hb BIGINT, only_account BIGINT, busy BOOLEAN)
  LOOP
    -- Only the batch's first unit may wait, and only one that was busy before: it holds nothing yet.
    v_wait := v_first AND u.busy;
    v_first := false;
    IF v_wait THEN PERFORM set_config('lock_timeout', '0', true); END IF;
    v_waiting := false;
    LOOP
      v_state := NULL;
      BEGIN
        r := xpay_create_order_row(u.tn, u.pid, u.otn, u.family, u.pay_type, u.name, u.amount, u.notify_url, u.return_url, u.param,
          u.clientip, u.device, u.extra, u.now, u.expire, u.alloc, u.day_start, u.max_offset, u.near, u.step, u.unpaid_since,
          u.online, u.hb, u.only_account, v_waiting);
        v_locked := (extract(epoch FROM clock_timestamp() - v_start) * 1000000)::bigint - r.o_held_us;
      EXCEPTION WHEN OTHERS THEN
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
    -- A new row (not a failed one retried, whose update the update trigger counts): folded below.
    IF r.o_outcome = 'created' AND r.o_order_row IS NULL THEN
      f_at := f_at || u.now;
      f_pid := f_pid || u.pid;
      f_acc := f_acc || COALESCE(r.o_account_id, 0);
      f_pt := f_pt || u.pay_type;
    END IF;
    outcome := r.o_outcome; trade_no := r.o_trade_no; status := r.o_status; fail_reason := r.o_fail_reason;
    account_id := r.o_account_id; trade_amount := r.o_trade_amount; order_row := r.o_order_row; account_row := r.o_account_row;
    at_us := CASE WHEN r.o_held_us > 0 THEN v_locked END; error_state := NULL;
    RETURN NEXT;
  END LOOP;

  ${BATCH_FOLD}
  -- The batch's end, for the lock hold of its units (each held its account from at_us to here, then the commit).
  i := 0; outcome := 'end'; trade_no := NULL; status := NULL; fail_reason := NULL; account_id := NULL; trade_amount := NULL;
  order_row := NULL; account_row := NULL; error_state := NULL;
  at_us := (extract(epoch FROM clock_timestamp() - v_start) * 1000000)::bigint;
  RETURN NEXT;
END
$fn$;`;
