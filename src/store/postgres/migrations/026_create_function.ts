// PostgreSQL 026: a create in one round trip. xpay_create_order does what the create unit did in
// six to ten statements from the application (src/store/postgres/create.ts calls it): the
// out_trade_no lock and lookup, the core's allocation rule (core/allocation.ts, from the data the
// rule carries: AllocationRequest) over locked report groups, the round-robin stamp, the insert.
// Locks are taken inside the call and end with its commit, never across a round trip to the
// application. The locks are today's (advisory lock 2 on "pid\nout_trade_no", row locks on the
// accounts of a report group), so an instance of the previous version creating on the same
// database at the same time still serializes with this one. test/pg/create-function.test.ts holds
// its decisions equal to the rule's on random data.
export default `
CREATE FUNCTION xpay_create_order(
  p_trade_nos TEXT[], p_pid BIGINT, p_out_trade_no TEXT, p_family TEXT, p_pay_type TEXT, p_name TEXT, p_amount BIGINT,
  p_notify_url TEXT, p_return_url TEXT, p_param TEXT, p_clientip TEXT, p_device TEXT, p_extra TEXT, p_now BIGINT, p_expire BIGINT,
  p_allocate BOOLEAN, p_day_start BIGINT, p_max_offset BIGINT, p_near BIGINT, p_step INTEGER, p_unpaid_since BIGINT,
  p_require_online BOOLEAN, p_heartbeat_timeout BIGINT, p_only_account BIGINT, p_waiting BOOLEAN)
RETURNS TABLE (outcome TEXT, order_row JSONB, account_row JSONB, held_us BIGINT)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_existing orders%ROWTYPE;
  v_found BOOLEAN;
  c RECORD;
  v_waiting BOOLEAN := p_waiting;
  v_any BOOLEAN;
  v_busy BOOLEAN;
  v_held BOOLEAN := false;
  v_reason TEXT;
  v_group BIGINT[];
  v_got INTEGER;
  v_self BOOLEAN;
  v_taken BIGINT[];
  v_far BIGINT;
  v_x BIGINT;
  v_acc BIGINT;
  v_ta BIGINT;
  v_status INTEGER := 1;
  v_locked_at TIMESTAMPTZ;
  v_order JSONB;
  v_account JSONB;
  v_t TEXT;
BEGIN
  -- A copy of this create on another instance waits here, then finds this order (orders.ts used the same key).
  PERFORM pg_advisory_xact_lock(2, hashtext(p_pid::text || E'\\n' || p_out_trade_no));
  SELECT * INTO v_existing FROM orders WHERE pid = p_pid AND out_trade_no = p_out_trade_no;
  v_found := FOUND;
  -- Returned as it is: the core's onExisting decides (a pending or paid one is returned, the rest refused).
  IF v_found AND v_existing.status <> 5 THEN
    RETURN QUERY SELECT 'existing'::text, to_jsonb(v_existing), (SELECT to_jsonb(a) FROM channel_accounts a WHERE a.id = v_existing.account_id), 0::bigint;
    RETURN;
  END IF;

  IF p_allocate THEN
    <<passes>>
    LOOP
      v_any := false;
      v_busy := false;
      v_reason := '';
      IF v_waiting THEN
        -- Every candidate and its report group, locked in id order: two waiting creates never wait in a circle.
        PERFORM 1 FROM channel_accounts
        WHERE (enabled = 1 AND pay_type = p_pay_type AND pid IN (0, p_pid) AND (p_only_account IS NULL OR id = p_only_account))
           OR report_group IN (SELECT report_group FROM channel_accounts WHERE enabled = 1 AND pay_type = p_pay_type AND pid IN (0, p_pid)
                                 AND (p_only_account IS NULL OR id = p_only_account) AND report_group > 0)
        ORDER BY id FOR UPDATE;
        v_locked_at := clock_timestamp();
      END IF;
      -- The rule's order: sort, then least recently used (core/allocation.ts allocationRule).
      FOR c IN
        SELECT a.id, a.min_amount, a.max_amount, a.day_amount, a.last_seen_at,
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
        -- The accounts one report could mean (itself alone while never computed) share payable amounts.
        v_group := ARRAY(SELECT c.id UNION SELECT m.id FROM channel_accounts g JOIN channel_accounts m ON m.report_group = g.report_group
                         WHERE g.id = c.id AND g.report_group > 0);
        IF NOT v_waiting THEN
          -- The whole group without waiting: an account another create holds looks full, the next one is tried.
          SELECT count(*), COALESCE(bool_or(l.id = c.id AND l.enabled = 1 AND l.pay_type = p_pay_type), false) INTO v_got, v_self
          FROM (SELECT id, enabled, pay_type FROM channel_accounts WHERE id = ANY (v_group) ORDER BY id FOR UPDATE SKIP LOCKED) l;
          IF v_got > 0 THEN v_held := true; END IF;
          IF v_got < cardinality(v_group) OR NOT v_self THEN
            v_busy := true;
            v_reason := 'no free payable amount on any account; try again later';
            CONTINUE;
          END IF;
          v_locked_at := clock_timestamp();
        END IF;
        -- chooseTradeAmount over the first p_near amounts, then the whole offset range.
        FOREACH v_far IN ARRAY ARRAY[p_near, p_max_offset] LOOP
          v_taken := ARRAY(SELECT o.trade_amount FROM orders o
            WHERE o.account_id = ANY (v_group)
              AND o.trade_amount BETWEEN LEAST(p_amount, p_amount + p_step * v_far) AND GREATEST(p_amount, p_amount + p_step * v_far)
              AND ((o.status = 1 AND o.expire_time >= p_unpaid_since) OR (o.status = 4 AND o.expire_time >= p_unpaid_since)
                OR (o.status = 3 AND o.closed_at >= p_unpaid_since) OR (o.status = 2 AND o.paid_at >= p_unpaid_since)));
          FOR i IN 0..v_far LOOP
            v_x := p_amount + p_step * i;
            EXIT WHEN v_x <= 0;
            IF NOT (v_x = ANY (v_taken)) THEN v_ta := v_x; EXIT; END IF;
          END LOOP;
          EXIT WHEN v_ta IS NOT NULL OR p_max_offset <= p_near;
        END LOOP;
        IF v_ta IS NOT NULL THEN v_acc := c.id; EXIT passes; END IF;
        v_reason := 'no free payable amount on any account; try again later';
      END LOOP;
      IF NOT v_any THEN v_reason := 'no enabled account for pay type ' || p_pay_type; END IF;
      EXIT passes WHEN NOT v_busy OR v_waiting;
      -- Found nothing, but passed over busy accounts. Holding none: wait for them all right here.
      -- Holding one (full): give the transaction up first, so no lock is held out of id order while waiting.
      IF v_held THEN RAISE EXCEPTION 'xpay: accounts busy' USING ERRCODE = 'XP001'; END IF;
      v_waiting := true;
    END LOOP passes;
    IF v_acc IS NULL THEN v_status := 5; END IF;
  END IF;

  IF v_acc IS NOT NULL THEN
    UPDATE channel_accounts SET use_seq = nextval('channel_accounts_use_seq') WHERE id = v_acc RETURNING to_jsonb(channel_accounts) INTO v_account;
  END IF;
  -- (migration 025's rollups of created orders are written here, in this transaction, when they land)
  IF v_found THEN
    -- A failed create retried on its own row, allocated again.
    UPDATE orders SET family = p_family, pay_type = p_pay_type, name = p_name, amount = p_amount, notify_url = p_notify_url,
      return_url = p_return_url, param = p_param, clientip = p_clientip, device = p_device, extra = p_extra, created_at = p_now,
      expire_time = p_expire, status = v_status, fail_reason = CASE WHEN v_status = 5 THEN v_reason ELSE '' END, account_id = v_acc, trade_amount = v_ta
    WHERE trade_no = v_existing.trade_no RETURNING to_jsonb(orders) INTO v_order;
  ELSE
    FOREACH v_t IN ARRAY p_trade_nos LOOP
      INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, status, fail_reason, account_id, trade_amount,
                          notify_url, return_url, param, clientip, device, extra, created_at, expire_time)
      VALUES (v_t, p_pid, p_out_trade_no, p_family, p_pay_type, p_name, p_amount, v_status, CASE WHEN v_status = 5 THEN v_reason ELSE '' END,
              v_acc, v_ta, p_notify_url, p_return_url, p_param, p_clientip, p_device, p_extra, p_now, p_expire)
      ON CONFLICT (trade_no) DO NOTHING RETURNING to_jsonb(orders) INTO v_order;
      EXIT WHEN v_order IS NOT NULL;
    END LOOP;
    -- Every trade_no drawn collided: the caller draws new ones (nothing was kept).
    IF v_order IS NULL THEN RAISE EXCEPTION 'xpay: trade_no collision' USING ERRCODE = 'XP002'; END IF;
  END IF;
  RETURN QUERY SELECT 'created'::text, v_order, v_account,
    CASE WHEN v_locked_at IS NULL THEN 0 ELSE (extract(epoch FROM clock_timestamp() - v_locked_at) * 1000000)::bigint END;
END
$fn$;
`;
