// orders_slot orders an account's amount by until when each order holds it (slots.ts HELD_UNTIL),
// instead of by status and the three end times. The allocator's and the payment report's search
// for an exact amount is then a seek to the orders that still hold it, however many ended orders
// share the amount: where a shop sells at one price, its few amounts gather every paid and expired
// order, and the search read them all on every create and every report (bench/hot-price.ts). The
// expression is written out here, not imported: a migration's text never changes once shipped.
export default `
DROP INDEX orders_slot;
CREATE INDEX orders_slot ON orders (account_id, trade_amount, (CASE status WHEN 1 THEN expire_time WHEN 4 THEN expire_time WHEN 3 THEN closed_at WHEN 2 THEN paid_at END));
`;
