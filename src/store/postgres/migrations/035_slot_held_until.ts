// PostgreSQL 035 (SQLite 035): orders_slot orders an account's amount by until when each order
// holds it (the CASE below, 026's own expression), instead of by status and the three end times,
// so a search for an exact amount is a seek to the orders that still hold it, however many ended
// orders share the amount. xpay_free_amount walks a range as before while it holds at most eight
// orders an amount; past that (a shop that sells at one price gathers every ended order on its few
// amounts), it looks the amounts up one by one, nearest first, and stops at the first free one.
export default `
DROP INDEX orders_slot;
CREATE INDEX orders_slot ON orders (account_id, trade_amount, (CASE status WHEN 1 THEN expire_time WHEN 4 THEN expire_time WHEN 3 THEN closed_at WHEN 2 THEN paid_at END));

CREATE OR REPLACE FUNCTION xpay_free_amount(p_group BIGINT[], p_amount BIGINT, p_step INTEGER, p_near BIGINT, p_max_offset BIGINT, p_unpaid_since BIGINT)
RETURNS BIGINT LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_far BIGINT;
  v_lo BIGINT;
  v_hi BIGINT;
  v_walk BIGINT[];
  v_x BIGINT;
BEGIN
  FOREACH v_far IN ARRAY ARRAY[p_near, p_max_offset] LOOP
    v_lo := LEAST(p_amount, p_amount + p_step * v_far);
    v_hi := GREATEST(p_amount, p_amount + p_step * v_far);
    -- Every order of the range, at most eight an amount: the amount when it still holds it (slots.ts slotHeld), else NULL.
    v_walk := ARRAY(SELECT CASE WHEN CASE o.status WHEN 1 THEN o.expire_time WHEN 4 THEN o.expire_time WHEN 3 THEN o.closed_at WHEN 2 THEN o.paid_at END >= p_unpaid_since
                                THEN o.trade_amount END
      FROM orders o WHERE o.account_id = ANY (p_group) AND o.trade_amount BETWEEN v_lo AND v_hi LIMIT 8 * (v_hi - v_lo + 1));
    IF cardinality(v_walk) < 8 * (v_hi - v_lo + 1) THEN
      v_walk := array_remove(v_walk, NULL);
      FOR i IN 0..v_far LOOP
        v_x := p_amount + p_step * i;
        EXIT WHEN v_x <= 0;
        IF NOT (v_x = ANY (v_walk)) THEN RETURN v_x; END IF;
      END LOOP;
    ELSE
      FOR i IN 0..v_far LOOP
        v_x := p_amount + p_step * i;
        EXIT WHEN v_x <= 0;
        IF NOT EXISTS (SELECT 1 FROM orders o WHERE o.account_id = ANY (p_group) AND o.trade_amount = v_x
                         AND CASE o.status WHEN 1 THEN o.expire_time WHEN 4 THEN o.expire_time WHEN 3 THEN o.closed_at WHEN 2 THEN o.paid_at END >= p_unpaid_since) THEN
          RETURN v_x;
        END IF;
      END LOOP;
    END IF;
    EXIT WHEN p_max_offset <= p_near;
  END LOOP;
  RETURN NULL;
END
$fn$;
`;
