// PostgreSQL 026: a create in one round trip. xpay_create_order does what the create unit did in
// six to ten statements from the application (src/store/postgres/create.ts calls it): the
// out_trade_no lock and lookup, the core's allocation rule (core/allocation.ts, from the data the
// rule carries: AllocationRequest) over locked report groups, the round-robin stamp, the insert.
// Locks are taken inside the call and end with its commit, never across a round trip to the
// application. The locks are today's (advisory lock 2 on "pid\nout_trade_no", row locks on the
// accounts of a report group), so an instance of the previous version creating on the same
// database at the same time still serializes with this one. test/pg/create-function.test.ts holds
// its decisions equal to the rule's on random data.
/** The parameters of 026's xpay_create_order (043's xpay_create_order_row takes the same). */
export const CREATE_PARAMS_026 = `  p_trade_nos TEXT[], p_pid BIGINT, p_out_trade_no TEXT, p_family TEXT, p_pay_type TEXT, p_name TEXT, p_amount BIGINT,
  p_notify_url TEXT, p_return_url TEXT, p_param TEXT, p_clientip TEXT, p_device TEXT, p_extra TEXT, p_now BIGINT, p_expire BIGINT,
  p_allocate BOOLEAN, p_day_start BIGINT, p_max_offset BIGINT, p_near BIGINT, p_step INTEGER, p_unpaid_since BIGINT,
  p_require_online BOOLEAN, p_heartbeat_timeout BIGINT, p_only_account BIGINT, p_waiting BOOLEAN`;

/** The variables ALLOCATION_026 and INSERT_026 use, as 026's xpay_create_order declares them (043's too). */
export const ALLOCATION_VARS_026 = `  v_existing orders%ROWTYPE;
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
`;

/**
 * The allocation of 026's xpay_create_order: the quick way, then the rule's pass and the wait for a
 * busy group; it leaves the account in v_acc (NULL: v_status 5 with v_reason) and the amount in
 * v_ta. Migration 043's xpay_create_order_row runs the same.
 */
export const ALLOCATION_026 = `  IF p_allocate AND NOT p_waiting THEN
    -- The quick way: the first account in the rule's order that fits and no other create holds,
    -- locked by the statement that finds it (SKIP LOCKED skips held rows inside one statement: the
    -- creates in flight, which all see the same order, do not each try every held account in turn).
    -- Its group's other rows next, without waiting; a full or partly held one is set aside and the
    -- next is looked for. Finding nothing, the pass below decides (the reason, the busy ones).
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
    -- The rule's order: sort, then least recently used (core/allocation.ts allocationRule).
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
      -- Waiting from the start, or the quick way found every fitting account held and holds none
      -- itself: each fitting account is a busy one to wait for (claiming them again finds them held).
      IF p_waiting OR NOT v_held THEN v_busy := v_busy || c.id; CONTINUE; END IF;
      -- The accounts one report could mean (itself alone while never computed) share payable amounts.
      v_group := CASE WHEN c.report_group = 0 THEN ARRAY[c.id] ELSE xpay_report_group(c.id) END;
      -- The whole group without waiting: an account another create holds looks full, the next one is tried.
      -- (Locked, its row is the newest: still enabled, of this pay type, in the group read.)
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
      -- Found nothing, but passed over busy accounts: a busy one is not a full one. Holding a full
      -- one's lock, the transaction is given up first (the caller calls again, waiting), so no lock
      -- is held while waiting for another: two creates can then never wait in a circle.
      IF v_held THEN RAISE EXCEPTION 'xpay: accounts busy' USING ERRCODE = 'XP001'; END IF;
      -- Wait for one busy group at a time, the first one dealt round-robin to the waiters by their
      -- transaction ids (consecutive creates, consecutive ids; the insert needs one anyway, and no
      -- sequence of its own means nothing for db copy to carry): waiters spread evenly over the held
      -- accounts instead of queueing behind the first, and few accounts free up with nobody waiting
      -- for them (at random, a third did when as many creates waited as there were accounts). A
      -- full one's locks go with its subtransaction.
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
`;

/** The new order's insert of 026's xpay_create_order under the first trade_no drawn that no order has (043 runs the same). */
export const INSERT_026 = `    -- The first trade_no drawn that no order has. Two creates that drew the same one at once: the
    -- second insert fails (unique_violation, nothing kept) and the caller calls again. Not ON
    -- CONFLICT: its speculative insertion doubled the insert's cost. The order is not read back
    -- either: the caller builds it from what it sent and these columns (store/created-order.ts).
    v_t := NULL;
    FOREACH v_try IN ARRAY p_trade_nos LOOP
      PERFORM 1 FROM orders WHERE trade_no = v_try;
      IF NOT FOUND THEN v_t := v_try; EXIT; END IF;
    END LOOP;
    IF v_t IS NULL THEN RAISE EXCEPTION 'xpay: trade_no collision' USING ERRCODE = 'XP002'; END IF;
    INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, fail_reason, account_id, trade_amount,
                        notify_url, return_url, param, clientip, device, extra, created_at, expire_time)
    VALUES (v_t, p_pid, p_out_trade_no, p_family, p_pay_type, p_name, p_amount, v_status, v_fail,
            v_acc, v_ta, p_notify_url, p_return_url, p_param, p_clientip, p_device, p_extra, p_now, p_expire);
`;

/** A failed create retried on its own row (026's xpay_create_order; 043 runs the same), its new row JSON into `into`. */
export function retriedRow(into: string): string {
  return `    -- A failed create retried on its own row, allocated again.
    UPDATE orders SET family = p_family, pay_type = p_pay_type, name = p_name, amount = p_amount, notify_url = p_notify_url,
      return_url = p_return_url, param = p_param, clientip = p_clientip, device = p_device, extra = p_extra, created_at = p_now,
      expire_time = p_expire, status = v_status, fail_reason = v_fail, account_id = v_acc, trade_amount = v_ta
    WHERE trade_no = v_existing.trade_no RETURNING to_jsonb(orders) INTO ${into};
`;
}

export default `
-- The core's chooseTradeAmount over one report group: the first free amount of the first p_near,
-- then of the whole offset range (core/allocation.ts reads in the same two steps). NULL: all taken.
CREATE FUNCTION xpay_free_amount(p_group BIGINT[], p_amount BIGINT, p_step INTEGER, p_near BIGINT, p_max_offset BIGINT, p_unpaid_since BIGINT)
RETURNS BIGINT LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_far BIGINT;
  v_taken BIGINT[];
  v_x BIGINT;
BEGIN
  FOREACH v_far IN ARRAY ARRAY[p_near, p_max_offset] LOOP
    -- What holds a slot: slots.ts slotHeld.
    v_taken := ARRAY(SELECT o.trade_amount FROM orders o
      WHERE o.account_id = ANY (p_group)
        AND o.trade_amount BETWEEN LEAST(p_amount, p_amount + p_step * v_far) AND GREATEST(p_amount, p_amount + p_step * v_far)
        -- slotHeld as one expression: an OR of the four would be planned as a BitmapOr whose paid and
        -- closed arms read every such order of every account (orders_expiry); this reads orders_slot alone.
        AND CASE o.status WHEN 1 THEN o.expire_time WHEN 4 THEN o.expire_time WHEN 3 THEN o.closed_at WHEN 2 THEN o.paid_at END >= p_unpaid_since);
    FOR i IN 0..v_far LOOP
      v_x := p_amount + p_step * i;
      EXIT WHEN v_x <= 0;
      IF NOT (v_x = ANY (v_taken)) THEN RETURN v_x; END IF;
    END LOOP;
    EXIT WHEN p_max_offset <= p_near;
  END LOOP;
  RETURN NULL;
END
$fn$;

-- The ids of an account's report group, itself included (itself alone while never computed).
CREATE FUNCTION xpay_report_group(p_id BIGINT) RETURNS BIGINT[] LANGUAGE sql STABLE AS $fn$
  SELECT ARRAY(SELECT p_id UNION SELECT m.id FROM channel_accounts g JOIN channel_accounts m ON m.report_group = g.report_group
               WHERE g.id = p_id AND g.report_group > 0 ORDER BY 1)
$fn$;

CREATE FUNCTION xpay_create_order(
${CREATE_PARAMS_026})
RETURNS TABLE (outcome TEXT, trade_no TEXT, status INTEGER, fail_reason TEXT, account_id BIGINT, trade_amount BIGINT,
               order_row JSONB, account_row JSONB, held_us BIGINT)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
#variable_conflict use_column
DECLARE
${ALLOCATION_VARS_026}  v_order JSONB;
  v_account JSONB;
  v_t TEXT;
  v_try TEXT;
  v_fail TEXT;
BEGIN
  -- A copy of this create on another instance waits here, then finds this order (orders.ts used the same key).
  PERFORM pg_advisory_xact_lock(2, hashtext(p_pid::text || E'\\n' || p_out_trade_no));
  SELECT * INTO v_existing FROM orders WHERE pid = p_pid AND out_trade_no = p_out_trade_no;
  v_found := FOUND;
  -- Returned as it is: the core's onExisting decides (a pending or paid one is returned, the rest refused).
  IF v_found AND v_existing.status <> 5 THEN
    RETURN QUERY SELECT 'existing'::text, NULL::text, NULL::int, NULL::text, NULL::bigint, NULL::bigint, to_jsonb(v_existing),
      (SELECT to_jsonb(a) FROM channel_accounts a WHERE a.id = v_existing.account_id), 0::bigint;
    RETURN;
  END IF;

${ALLOCATION_026}
  IF v_acc IS NOT NULL THEN
    UPDATE channel_accounts SET use_seq = nextval('channel_accounts_use_seq') WHERE id = v_acc RETURNING to_jsonb(channel_accounts) INTO v_account;
  END IF;
  v_fail := CASE WHEN v_status = 5 THEN v_reason ELSE '' END;
  -- (migration 025's row triggers on orders keep the income rollups in this same transaction.)
  IF v_found THEN
${retriedRow("v_order")}  ELSE
${INSERT_026}  END IF;
  RETURN QUERY SELECT 'created'::text, v_t, v_status, v_fail, v_acc, v_ta, v_order, v_account,
    CASE WHEN v_locked_at IS NULL THEN 0 ELSE (extract(epoch FROM clock_timestamp() - v_locked_at) * 1000000)::bigint END;
END
$fn$;
`;
