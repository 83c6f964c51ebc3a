// The notifier's fair claim (sqlite/outbox.ts claimFair) takes at most `notify_per_merchant` due
// rows of each merchant. It found them by reading every due row with its order's merchant and
// numbering them per merchant, so each pass cost a read of the whole backlog: 13.7 ms a pass with
// 10 000 rows due for one merchant whose endpoint was down, 70 ms with 50 000, on the event loop
// that also answers creates and reports (bench/claim-backlog.ts, docs/benchmarks.md 2026-11-30).
// The outbox row now keeps its merchant, and the pending rows are indexed by merchant and due time:
// a pass seeks each merchant with pending rows and reads at most its share (64-71 µs at those backlogs).
// A row inserted without its merchant (an older tool, a copy) gets it from its order.
export default `
ALTER TABLE notifications ADD COLUMN pid INTEGER;
UPDATE notifications SET pid = (SELECT o.pid FROM orders o WHERE o.trade_no = notifications.trade_no);
CREATE INDEX notifications_pending_by_pid ON notifications (pid, next_attempt_at) WHERE status = 'pending';
CREATE TRIGGER notifications_pid AFTER INSERT ON notifications WHEN NEW.pid IS NULL BEGIN
  UPDATE notifications SET pid = (SELECT o.pid FROM orders o WHERE o.trade_no = NEW.trade_no) WHERE id = NEW.id;
END;
`;
