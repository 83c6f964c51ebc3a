// SQLite 003: the slot search reads status and the end times from the index alone.
export default `
DROP INDEX orders_slot;
CREATE INDEX orders_slot ON orders (account_id, trade_amount, status, expire_time, closed_at);
`;
