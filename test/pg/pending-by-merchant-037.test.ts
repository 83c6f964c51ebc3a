// Migration 037 on PostgreSQL, as on SQLite (test/store/pending-by-merchant-037.test.ts): the
// outbox rows keep their merchant (backfilled, and filled in for a row inserted without it), and
// the fair claim takes each merchant's share on the pending rows' index, whatever one's backlog.
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { pgMigrate } from "../../src/store/postgres/migrate.ts";
import { PG_MIGRATIONS } from "../../src/store/postgres/migrations/index.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";

const NOW_MS = 1_800_000_000_000;

async function outboxRow(sql: SQL, pid: number, n: number, due: number, status = "pending") {
  const t = `T${pid}-${n}`;
  await sql`INSERT INTO orders (trade_no, pid, out_trade_no, family, name, amount, status, created_at, expire_time) VALUES (${t}, ${pid}, ${`O${n}`}, 'native', 'x', 100, 2, 1, 2)`;
  await sql`INSERT INTO notifications (trade_no, family, url, method, params, status, next_attempt_at, created_at) VALUES (${t}, 'native', ${`http://shop${pid}.example/n`}, 'POST', '{}', ${status}, ${due}, 1)`;
}

withPostgres(() => {
  const cluster = clusterPerFile();

  test("rows before 037 get their order's merchant, a row inserted without one too; the claim takes each merchant's share", async () => {
    const url = await cluster().createDatabase("pending037");
    const sql = new SQL(url, { max: 1 });
    await pgMigrate(sql, PG_MIGRATIONS.filter((m) => m.version < 37));
    for (const pid of [1001, 1002, 1003]) await sql`INSERT INTO merchants (pid, name, secret, created_at) VALUES (${pid}, 'Shop', 'secret-of-the-shop-0123', 1)`;
    // 1001's endpoint was down: 300 rows due. 1002 one row, due last; 1003 a delivered one.
    for (let i = 0; i < 300; i++) await outboxRow(sql, 1001, i, NOW_MS - 100_000 + i);
    await outboxRow(sql, 1002, 0, NOW_MS - 1);
    await outboxRow(sql, 1003, 0, NOW_MS, "delivered");
    await pgMigrate(sql, PG_MIGRATIONS);
    await outboxRow(sql, 1003, 1, NOW_MS + 60_000); // an older tool's insert, without the column
    expect(await sql`SELECT pid::int AS pid, count(*)::int AS n FROM notifications GROUP BY pid ORDER BY pid`).toEqual([
      { pid: 1001, n: 300 },
      { pid: 1002, n: 1 },
      { pid: 1003, n: 2 },
    ]);
    await sql.close();

    const store = PostgresStore.open(url);
    await store.ready;
    const seen: number[] = [];
    const leased = await store.claimDueNotifications(NOW_MS, 100, 60_000, { perMerchant: 4, admit: (c) => (seen.push(c.pid), true) });
    expect(seen).toEqual([1001, 1001, 1001, 1001, 1002]);
    expect(leased.map((n) => n.tradeNo)).toEqual(["T1001-0", "T1001-1", "T1001-2", "T1001-3", "T1002-0"]);
    const next = await store.claimDueNotifications(NOW_MS, 100, 60_000, { perMerchant: 4, admit: () => true });
    expect(next.map((n) => n.tradeNo)).toEqual(["T1001-4", "T1001-5", "T1001-6", "T1001-7"]);
    await store.end();
  }, 60_000);
});
