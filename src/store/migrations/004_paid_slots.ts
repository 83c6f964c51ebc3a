// A paid order keeps its payable amount reserved for the match window (from paid_at), like a
// closed or timed-out one: a phone that re-sends the same payment (new timestamp, no pay_time)
// must read "already paid", never pay the next order that took the same amount. The slot search
// reads paid_at from the covering index, so it still never touches the table.
export default `
DROP INDEX orders_slot;
CREATE INDEX orders_slot ON orders (account_id, trade_amount, status, expire_time, closed_at, paid_at);
`;
