// Migration 025 on PostgreSQL, as on SQLite (test/store/order-rollup-025.test.ts, the cases in
// test/store-contract/order-rollup-025.ts): the rollup backfilled from the orders before it.
import { test } from "bun:test";
import { SQL } from "bun";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { pgMigrate } from "../../src/store/postgres/migrate.ts";
import { PG_MIGRATIONS } from "../../src/store/postgres/migrations/index.ts";
import { expectBackfilled, HISTORY } from "../store-contract/order-rollup-025.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";

withPostgres(() => {
  const cluster = clusterPerFile();

  test("the rollup holds what the orders written before the upgrade count", async () => {
    const url = await cluster().createDatabase("rollup025");
    const sql = new SQL(url, { max: 1 });
    await pgMigrate(sql, PG_MIGRATIONS.filter((m) => m.version < 25));
    for (const m of HISTORY.merchants) await sql`INSERT INTO merchants ${sql(m)}`;
    for (const a of HISTORY.accounts) await sql`INSERT INTO channel_accounts ${sql(a)}`;
    for (const o of HISTORY.orders) await sql`INSERT INTO orders ${sql(o)}`;
    await sql.close();
    const store = PostgresStore.open(url); // migrates
    await store.ready;
    await expectBackfilled(store);
    await store.end();
  }, 60_000);
});
