// PostgreSQL 032: xpay_report_group (026) in plpgsql. It was a LANGUAGE sql function, and
// PostgreSQL 15 parses, analyzes and plans the body of a SQL function it does not inline on every
// call; this one (a UNION inside ARRAY()) it never inlines. Every create calls it once or more, and
// a profile of the backends under `npm run bench:pg` (perf, 2026-11-29; docs/benchmarks.md) put a
// fifth of their CPU there (fmgr_sql: the parser, the planner's set operations and selectivity).
// plpgsql plans its statements once per connection. The answer is 026's: the account's report
// group, itself included, sorted; the account alone when it has no group or does not exist
// (test/pg/create-costs-032.test.ts holds the two equal).
export default `
CREATE OR REPLACE FUNCTION xpay_report_group(p_id BIGINT) RETURNS BIGINT[] LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_rg BIGINT;
BEGIN
  SELECT report_group INTO v_rg FROM channel_accounts WHERE id = p_id;
  IF v_rg IS NULL OR v_rg <= 0 THEN RETURN ARRAY[p_id]; END IF;
  RETURN ARRAY(SELECT p_id UNION SELECT id FROM channel_accounts WHERE report_group = v_rg ORDER BY 1);
END
$fn$;
`;
