// 041 on PostgreSQL: nothing. SQLite's 041 holds the key its new orders' numbers are made with, so
// that its primary index only grows at its end (src/store/sqlite/order-keys.ts). PostgreSQL keeps
// storing each order under its public number, random as before.
export default `SELECT 1;`;
