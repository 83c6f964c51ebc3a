// Migration 023 on SQLite: the delivery rows backfilled from the history (cases and expectations:
// test/store-contract/merchant-delivery-023.ts); the PostgreSQL twin is test/pg/merchant-delivery-023.test.ts.
import { afterAll, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { migrate } from "../../src/store/migrate.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { tempDir } from "../helpers.ts";
import { expectBackfilled, HISTORY } from "../store-contract/merchant-delivery-023.ts";

const dir = tempDir("xpay-023-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const insert = (table: string, row: Record<string, unknown>) =>
  [`INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row).map((k) => `$${k}`).join(", ")})`, Object.fromEntries(Object.entries(row).map(([k, v]) => [`$${k}`, v]))] as const;

test("each merchant's last success, failing since and last error come from the history", async () => {
  const path = join(dir, "xpay.db");
  const db = openDatabase(path);
  migrate(db, MIGRATIONS.filter((m) => m.version < 23));
  const run = (table: string, row: Record<string, unknown>) => {
    const [sql, bind] = insert(table, row);
    return db.query(`${sql} RETURNING rowid AS id`).get(bind as never) as { id: number };
  };
  for (const m of HISTORY.merchants) run("merchants", m);
  for (const o of HISTORY.orders) run("orders", o);
  for (const [i, status, deliveredAt, attempts] of HISTORY.notifications) {
    const { id } = run("notifications", { trade_no: HISTORY.orders[i]!.trade_no, family: "native", url: "http://x", method: "POST", params: "{}", status, attempts: attempts.length, next_attempt_at: 0, created_at: 1, delivered_at: deliveredAt });
    for (const [at, http, error, ack] of attempts) run("notification_attempts", { notification_id: id, attempted_at: at, duration_ms: 1, http_status: http, error, acknowledged: ack });
  }
  db.close();
  const store = SqliteStore.open(path); // migrates
  expectBackfilled(await store.deliveryHealth());
  store.close();
});
