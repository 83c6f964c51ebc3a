// 028 on SQLite: nothing. PostgreSQL's 028 installs its batched create (xpay_create_orders: the
// creates of one event-loop turn in one call and one commit); SQLite groups its writes in-process
// already (sqlite/index.ts grouped). The number is kept so that a version means the same schema on
// both engines.
export default `SELECT 1;`;
