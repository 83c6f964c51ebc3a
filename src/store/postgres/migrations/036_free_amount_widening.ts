// PostgreSQL 036: xpay_free_amount reads as the core's rule now does (core/allocation.ts): the
// nearest p_near + 1 amounts, then, only when all are held, the next ones in reads four times as
// wide each time, instead of the whole offset range at once. Each read walks its range (035) while
// it holds at most eight orders an amount, else looks its amounts up one by one, nearest first, and
// stops at the first free one: a shop's busy price gathers its ended orders on a few amounts, and
// the reads past them are walked again (a memory of the full read, looking every later amount up,
// measured slower). The walk and the lookups read one account at a time in the index's order, so
// that each stops at its limit whatever the statistics suggest (below). The amount chosen is the
// same (test/pg/create-function.test.ts holds it equal to the rule's).
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
BEGIN
  WHILE v_from <= v_last LOOP
    v_to := LEAST(v_last, v_from + v_width - 1);
    v_lo := LEAST(p_amount + p_step * v_from, p_amount + p_step * v_to);
    v_hi := GREATEST(p_amount + p_step * v_from, p_amount + p_step * v_to);
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
