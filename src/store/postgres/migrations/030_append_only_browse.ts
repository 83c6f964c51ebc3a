// SQLite 030: the order lists by merchant and by status without trade_no in the key. Its random
// digits put every create of one second on a page of its own in each index; without it, equal
// keys fall in the order PostgreSQL stores them (its B-tree breaks ties by the row's position,
// which grows as rows are appended) and the lists sort one second's orders by trade_no
// (an incremental sort).
export default `
DROP INDEX orders_by_pid_created;
DROP INDEX orders_by_status_created;
CREATE INDEX orders_by_pid_created ON orders (pid, created_at);
CREATE INDEX orders_by_status_created ON orders (status, created_at);
`;
