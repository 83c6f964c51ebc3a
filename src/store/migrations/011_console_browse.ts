// The console lists orders newest first under a filter and pages by (created_at, trade_no), and
// an order's page shows every report that touched it. Without these indexes each page of a
// million-order table was a full scan and sort (the unfiltered list walks 010's created_at
// index). created_at only grows, so new entries land at the end of each merchant's and each
// status's range; the create path pays little for them (docs/benchmarks.md).
export default `
CREATE INDEX orders_by_pid_created ON orders (pid, created_at, trade_no);
CREATE INDEX orders_by_status_created ON orders (status, created_at, trade_no);
-- Late payments (paid after expire_time): few rows, kept in their own small index.
CREATE INDEX orders_late ON orders (paid_at) WHERE status = 2 AND paid_at > expire_time;
CREATE INDEX reports_by_trade_no ON reports (trade_no) WHERE trade_no IS NOT NULL;
`;
