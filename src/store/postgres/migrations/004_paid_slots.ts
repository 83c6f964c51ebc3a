// SQLite 004: a paid order holds its payable amount for the match window (from paid_at) too.
export default `
DROP INDEX orders_slot;
CREATE INDEX orders_slot ON orders (account_id, trade_amount, status, expire_time, closed_at, paid_at);
`;
