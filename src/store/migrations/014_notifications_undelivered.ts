// The dashboard's attention list shows notifications failing or given up. Without an index it
// fetched every undelivered notification ever written (given-up ones are kept with their orders)
// to keep the last seven days: 15-30 ms on a million orders. This partial index holds only the
// rows not delivered: a notification enters it when queued and leaves it when delivered, so it
// stays as small as the outbox's backlog plus the given-up rows.
export default `
CREATE INDEX notifications_undelivered ON notifications (created_at) WHERE status <> 'delivered';
`;
