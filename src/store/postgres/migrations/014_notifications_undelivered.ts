// SQLite 014: the dashboard's undelivered notifications, a partial index of the rows not delivered.
export default `
CREATE INDEX notifications_undelivered ON notifications (created_at) WHERE status <> 'delivered';
`;
