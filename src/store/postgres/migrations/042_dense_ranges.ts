// PostgreSQL 042 (SQLite: store/sqlite/channels.ts takenTradeAmounts): xpay_free_amount remembers,
// per connection, the ranges whose walk reached its cap (eight orders an amount) and looks their
// amounts up directly the next times. At a shop's one price every create walked its cap of ended
// orders, a heap fetch each (the held-until expression is not in the index's leaf), only to learn
// what the last create had learned. The marks live in a setting of the session
// (`xpay.dense_ranges`: the ten-minute period of p_unpaid_since, then ",group:lo:hi," per range),
// reset when the period turns, so a range that retention thinned is walked again, and when the text
// grows past 8 000 characters. A transaction that rolls back takes its marks with it. Both ways give
// the same answer (036), so a mark, right or stale, can only cost time.
export default `
CREATE OR REPLACE FUNCTION xpay_free_amount(p_group BIGINT[], p_amount BIGINT, p_step INTEGER, p_near BIGINT, p_max_offset BIGINT, p_unpaid_since BIGINT)
RETURNS BIGINT LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_last BIGINT := CASE WHEN p_step < 0 THEN LEAST(p_max_offset, p_amount - 1) ELSE p_max_offset END;
  v_from BIGINT := 0;
  v_width BIGINT := p_near + 1;
  v_to BIGINT;
  v_lo BIGINT;
  v_hi BIGINT;
  v_walk BIGINT[];
  v_x BIGINT;
  v_period TEXT := (p_unpaid_since / 600)::TEXT || '|';
  v_marks TEXT := COALESCE(current_setting('xpay.dense_ranges', true), '');
  v_key TEXT;
  v_dense BOOLEAN;
BEGIN
  IF left(v_marks, length(v_period)) <> v_period OR length(v_marks) > 8000 THEN
    v_marks := v_period;
    PERFORM set_config('xpay.dense_ranges', v_marks, false);
  END IF;
  WHILE v_from <= v_last LOOP
    v_to := LEAST(v_last, v_from + v_width - 1);
    v_lo := LEAST(p_amount + p_step * v_from, p_amount + p_step * v_to);
    v_hi := GREATEST(p_amount + p_step * v_from, p_amount + p_step * v_to);
    v_key := ',' || array_to_string(p_group, '.') || ':' || v_lo || ':' || v_hi || ',';
    v_dense := strpos(v_marks, v_key) > 0;
    IF NOT v_dense THEN
      -- Every order of the range, at most eight an amount: the amount when it still holds it (slots.ts
      -- slotHeld), else NULL. One account at a time, in the index's order: with statistics, the
      -- planner read a range of the group as a bitmap, which takes every entry before the limit
      -- applies (25 000 entries, 3.5 ms, at a busy price); in order, the scan stops at the limit.
      v_walk := ARRAY(SELECT w.x FROM unnest(p_group) g(id) CROSS JOIN LATERAL (
          SELECT CASE WHEN CASE o.status WHEN 1 THEN o.expire_time WHEN 4 THEN o.expire_time WHEN 3 THEN o.closed_at WHEN 2 THEN o.paid_at END >= p_unpaid_since
                      THEN o.trade_amount END AS x
          FROM orders o WHERE o.account_id = g.id AND o.trade_amount BETWEEN v_lo AND v_hi ORDER BY o.trade_amount LIMIT 8 * (v_hi - v_lo + 1)) w
        LIMIT 8 * (v_hi - v_lo + 1));
      IF cardinality(v_walk) >= 8 * (v_hi - v_lo + 1) THEN
        v_dense := true;
        v_marks := v_marks || v_key;
        PERFORM set_config('xpay.dense_ranges', v_marks, false);
      END IF;
    END IF;
    IF v_dense THEN
      FOR i IN v_from..v_to LOOP
        v_x := p_amount + p_step * i;
        -- In the index's order too: as a plain EXISTS the generic plan expected thousands of held
        -- orders (the statistics of a busy amount) and read the table from its start (67 ms).
        IF NOT EXISTS (SELECT 1 FROM unnest(p_group) g(id) CROSS JOIN LATERAL (
                         SELECT 1 FROM orders o WHERE o.account_id = g.id AND o.trade_amount = v_x
                           AND CASE o.status WHEN 1 THEN o.expire_time WHEN 4 THEN o.expire_time WHEN 3 THEN o.closed_at WHEN 2 THEN o.paid_at END >= p_unpaid_since
                         ORDER BY CASE o.status WHEN 1 THEN o.expire_time WHEN 4 THEN o.expire_time WHEN 3 THEN o.closed_at WHEN 2 THEN o.paid_at END LIMIT 1) h) THEN
          RETURN v_x;
        END IF;
      END LOOP;
    ELSE
      v_walk := array_remove(v_walk, NULL);
      FOR i IN v_from..v_to LOOP
        v_x := p_amount + p_step * i;
        IF NOT (v_x = ANY (v_walk)) THEN RETURN v_x; END IF;
      END LOOP;
    END IF;
    v_from := v_to + 1;
    v_width := v_width * 4;
  END LOOP;
  RETURN NULL;
END
$fn$;
`;
