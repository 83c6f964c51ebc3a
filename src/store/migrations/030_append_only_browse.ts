// The console's order lists by merchant and by status (011) were indexed on (pid, created_at,
// trade_no) and (status, created_at, trade_no), so that each page came out of the index in order.
// 011 counted on created_at only growing, but within one second the entries fall in trade_no
// order, and trade_no's last 12 digits are random: every create of a busy second landed on a page
// of its own in each index. A write-ahead log of 10,000 creates held 0.66 and 0.64 pages per create
// for them, as many as the orders_slot index, which is random by design (bench/wal-pages.ts).
// Without trade_no the entries of one second fall in rowid order, which only grows: new entries
// land at the end of their merchant's and their status's range. The lists keep their order
// (created_at, then trade_no): SQLite sorts the orders of one second, the last term of the ORDER
// BY, as it already did for the unfiltered list (010's index has no trade_no either).
export default `
DROP INDEX orders_by_pid_created;
DROP INDEX orders_by_status_created;
CREATE INDEX orders_by_pid_created ON orders (pid, created_at);
CREATE INDEX orders_by_status_created ON orders (status, created_at);
`;
