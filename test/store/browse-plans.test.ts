// The console's order lists by merchant and by status read 030's (pid, created_at) and
// (status, created_at) indexes and sort only the orders of one second (the last term of the
// ORDER BY); they never scan the table. Those indexes hold no trade_no: its random digits put every
// create of one second on a page of its own (bench/wal-pages.ts counts them).
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { migrate } from "../../src/store/migrate.ts";
import { orderWhere, ordersFrom, totalsFrom } from "../../src/store/sqlite/browse.ts";

const plan = (db: Database, sql: string, bind: Record<string, unknown>) =>
  (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(bind as never) as { detail: string }[]).map((r) => r.detail).join("; ");
const LIST = "ORDER BY created_at DESC, trade_no DESC LIMIT 50";

test("the lists by merchant and by status walk their created_at indexes, pages included", () => {
  const db = new Database(":memory:");
  migrate(db);
  expect(plan(db, `SELECT * FROM orders WHERE pid = $pid ${LIST}`, { pid: 1 })).toBe("SEARCH orders USING INDEX orders_by_pid_created (pid=?); USE TEMP B-TREE FOR LAST TERM OF ORDER BY");
  expect(plan(db, `SELECT * FROM orders WHERE status = $s ${LIST}`, { s: 1 })).toBe("SEARCH orders USING INDEX orders_by_status_created (status=?); USE TEMP B-TREE FOR LAST TERM OF ORDER BY");
  expect(plan(db, `SELECT * FROM orders WHERE pid = $pid AND (created_at, trade_no) < ($a, $t) ${LIST}`, { pid: 1, a: 5, t: "x" })).toStartWith(
    "SEARCH orders USING INDEX orders_by_pid_created (pid=? AND created_at<?)",
  );
});

test("no index of orders puts trade_no right after created_at", () => {
  const db = new Database(":memory:");
  migrate(db);
  const defs = (db.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'orders' AND sql IS NOT NULL").all() as { name: string; sql: string }[]);
  const keyedAfterCreated = defs.filter((d) => /created_at\s*,\s*trade_no/.test(d.sql)).map((d) => d.name);
  expect(keyedAfterCreated).toEqual([]);
});

test("a search under a status and a merchant reads the orders it names and sorts them, never a status's or merchant's whole range", () => {
  const db = new Database(":memory:");
  migrate(db);
  for (const search of [{ tradeAmount: 36746 }, { outTradeNo: "M1" }, { tradeNo: "20270101000000000001" }]) {
    const bind: Parameters<typeof orderWhere>[1] = {};
    const where = orderWhere({ status: 2, pid: 1003, search, now: 0 } as Parameters<typeof orderWhere>[0], bind);
    const p = plan(db, `SELECT * FROM orders WHERE ${where.join(" AND ")} ${LIST}`, bind);
    expect(p).toStartWith("SEARCH orders USING INDEX sqlite_autoindex_orders_1 (trade_no=?)");
    expect(p).not.toContain("orders_by_status_created");
    expect(p).not.toContain("orders_by_pid_created");
  }
});

test("a payer address walks the totals index newest first and tests the address there; a paid-time range beside it comes first", () => {
  const db = new Database(":memory:");
  migrate(db);
  const plans = (q: Omit<Parameters<typeof orderWhere>[0], "now">) => {
    const bind: Parameters<typeof orderWhere>[1] = {};
    const where = orderWhere({ now: 0, ...q } as Parameters<typeof orderWhere>[0], bind);
    return {
      list: plan(db, `SELECT * FROM ${ordersFrom(q as Parameters<typeof ordersFrom>[0])} WHERE ${where.join(" AND ")} ${LIST}`, { ...bind, limit: 50 }),
      totals: plan(db, `SELECT count(*), sum(trade_amount) FROM ${totalsFrom(q as Parameters<typeof totalsFrom>[0])} WHERE ${where.join(" AND ")}`, bind),
    };
  };
  // No index is keyed by the address (040): each create would write a random page of it.
  const keyed = db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'orders' AND sql LIKE '%(clientip%'").all();
  expect(keyed).toEqual([]);
  for (const q of [{ clientIp: "203.0.113.7" }, { clientIp: "203.0.113.7", pid: 1003, status: 2 }]) {
    expect(plans(q)).toEqual({
      list: "SCAN orders USING INDEX orders_created_stats; USE TEMP B-TREE FOR LAST TERM OF ORDER BY",
      totals: "SCAN orders USING COVERING INDEX orders_created_stats",
    });
  }
  expect(plans({ clientIp: "203.0.113.7", from: 5, to: 9 }).totals).toBe("SEARCH orders USING COVERING INDEX orders_created_stats (created_at>? AND created_at<?)");
  expect(plans({ clientIp: "203.0.113.7", paidFrom: 5, paidTo: 9 }).list).toStartWith("SEARCH orders USING INDEX orders_paid_at (paid_at>? AND paid_at<?)");
});
