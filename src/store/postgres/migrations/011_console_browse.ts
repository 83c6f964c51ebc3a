// SQLite 011: the console's order list pages by (created_at, trade_no) under a filter; an order's
// page reads the reports that touched it.
export default `
CREATE INDEX orders_by_pid_created ON orders (pid, created_at, trade_no);
CREATE INDEX orders_by_status_created ON orders (status, created_at, trade_no);
CREATE INDEX orders_late ON orders (paid_at) WHERE status = 2 AND paid_at > expire_time;
CREATE INDEX reports_by_trade_no ON reports (trade_no) WHERE trade_no IS NOT NULL;
`;
