// 041 on SQLite: the key new orders' numbers are made with (src/store/sqlite/order-keys.ts). Its
// bytes are drawn by xpay when the store opens (node:crypto), not by SQLite's randomblob(); the one
// row also holds the last day an order may be stored under its public number (every order before
// this migration). PostgreSQL keeps storing public numbers: its 041 is nothing.
export default `
CREATE TABLE order_number_key (
  id             INTEGER PRIMARY KEY CHECK (id = 1),
  key            BLOB    NOT NULL CHECK (length(key) = 16),
  legacy_through TEXT    NOT NULL
);`;
