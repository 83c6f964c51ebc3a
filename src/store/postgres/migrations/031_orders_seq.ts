// SQLite 031: orders.seq, placed right after created_at in orders_created_stats so that the entries
// of one second fall in insertion order instead of (merchant, pay type, account) order and the
// index only grows at its end. Here a sequence fills it for every insert, whatever inserts (the
// create functions name their columns and leave it to the default); rows from before have none
// (NULL, sorted last within their second here, which only costs them their place at the end).
export default `
CREATE SEQUENCE orders_seq;
ALTER TABLE orders ADD COLUMN seq BIGINT;
ALTER TABLE orders ALTER COLUMN seq SET DEFAULT nextval('orders_seq');
ALTER SEQUENCE orders_seq OWNED BY orders.seq;
DROP INDEX orders_created_stats;
CREATE INDEX orders_created_stats ON orders (created_at, seq, pid, pay_type, account_id, status, expire_time, amount, trade_amount);
`;
