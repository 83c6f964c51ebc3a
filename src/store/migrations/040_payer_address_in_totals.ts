// orders_by_clientip (023) found a payer's orders by address. A payer's address is as random as a
// trade_no, so with real traffic, where every create carries its payer's address (epay's mapi and
// the native API pass `clientip`), each create wrote one more random page of the log: 1.11 pages a
// create against 0.05 when every order had one address (bench/wal-pages.ts, 2026-11-30), 8-14 µs of
// the server's 91-98 a create (bench/server-cpu.ts). The address goes to the end of
// orders_created_stats instead, which only grows at its end (031): the orders list and its totals
// filtered by address walk that index and test the address in it, without reading a row that does
// not match (40 and 64 ms on 1 000 000 orders, bench/console.ts, where the index took under 1).
// PostgreSQL keeps the index (its 040 says why).
export default `
DROP INDEX orders_by_clientip;
DROP INDEX orders_created_stats;
CREATE INDEX orders_created_stats ON orders (created_at, seq, pid, pay_type, account_id, status, expire_time, amount, trade_amount, clientip);
`;
