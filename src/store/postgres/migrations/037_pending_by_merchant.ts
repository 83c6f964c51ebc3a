// PostgreSQL 037, as SQLite's (src/store/migrations/037_pending_by_merchant.ts): the outbox row
// keeps its merchant and the pending rows are indexed by merchant and due time, so the fair claim
// (postgres/outbox.ts claimFair) seeks each merchant with pending rows and reads at most its share
// instead of every due row with its order. A row inserted without its merchant gets it from its
// order, before it is written.
export default `
ALTER TABLE notifications ADD COLUMN pid BIGINT;
UPDATE notifications n SET pid = o.pid FROM orders o WHERE o.trade_no = n.trade_no;
CREATE INDEX notifications_pending_by_pid ON notifications (pid, next_attempt_at, id) WHERE status = 'pending';
CREATE FUNCTION notifications_pid() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.pid := (SELECT o.pid FROM orders o WHERE o.trade_no = NEW.trade_no);
  RETURN NEW;
END
$fn$;
CREATE TRIGGER notifications_pid BEFORE INSERT ON notifications FOR EACH ROW WHEN (NEW.pid IS NULL) EXECUTE FUNCTION notifications_pid();
`;
