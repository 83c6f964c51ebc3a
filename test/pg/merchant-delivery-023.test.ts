// Migration 023 on PostgreSQL, as on SQLite (test/store/merchant-delivery-023.test.ts, the cases in
// test/store-contract/merchant-delivery-023.ts): the delivery rows backfilled from the history.
import { test } from "bun:test";
import { SQL } from "bun";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { pgMigrate } from "../../src/store/postgres/migrate.ts";
import { PG_MIGRATIONS } from "../../src/store/postgres/migrations/index.ts";
import { expectBackfilled, HISTORY } from "../store-contract/merchant-delivery-023.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";

withPostgres(() => {
  const cluster = clusterPerFile();

  test("each merchant's last success, failing since and last error come from the history", async () => {
    const url = await cluster().createDatabase("delivery023");
    const sql = new SQL(url, { max: 1 });
    await pgMigrate(sql, PG_MIGRATIONS.filter((m) => m.version < 23));
    for (const m of HISTORY.merchants) await sql`INSERT INTO merchants ${sql(m)}`;
    for (const o of HISTORY.orders) await sql`INSERT INTO orders ${sql(o)}`;
    for (const [i, status, deliveredAt, attempts] of HISTORY.notifications) {
      const row = { trade_no: HISTORY.orders[i]!.trade_no, family: "native", url: "http://x", method: "POST", params: "{}", status, attempts: attempts.length, next_attempt_at: 0, created_at: 1, delivered_at: deliveredAt };
      const [{ id }] = await sql`INSERT INTO notifications ${sql(row)} RETURNING id`;
      for (const [at, http, error, ack] of attempts) await sql`INSERT INTO notification_attempts ${sql({ notification_id: id, attempted_at: at, duration_ms: 1, http_status: http, error, acknowledged: ack })}`;
    }
    await sql.close();
    const store = PostgresStore.open(url); // migrates
    await store.ready;
    expectBackfilled(await store.deliveryHealth());
    await store.end();
  }, 60_000);
});
