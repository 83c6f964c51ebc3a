// The slot search reads, for each reserved amount near the order's, whether the order still holds
// it (status, expire_time, closed_at). With those columns in the index the search never reads the
// table: in a large orders table every such read was a random page, outside the page cache.
export default `
DROP INDEX orders_slot;
CREATE INDEX orders_slot ON orders (account_id, trade_amount, status, expire_time, closed_at);
`;
