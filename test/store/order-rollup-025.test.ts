// Migration 025 on SQLite: the rollup backfilled from the orders written before it (cases and
// expectations: test/store-contract/order-rollup-025.ts); the PostgreSQL twin is
// test/pg/order-rollup-025.test.ts. Also: the stats-only indexes are gone, and db copy leaves the
// rollup to the destination's triggers (copying its rows too would count every order twice).
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { migrate } from "../../src/store/migrate.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { tempDir } from "../helpers.ts";
import { expectBackfilled, HISTORY } from "../store-contract/order-rollup-025.ts";

const dir = tempDir("xpay-025-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function insert(db: ReturnType<typeof openDatabase>, table: string, row: Record<string, unknown>) {
  const keys = Object.keys(row);
  db.query(`INSERT INTO ${table} (${keys.join(", ")}) VALUES (${keys.map((k) => `$${k}`).join(", ")})`).run(Object.fromEntries(keys.map((k) => [`$${k}`, row[k]])) as never);
}

test("the rollup holds what the orders written before the upgrade count; the stats-only indexes are gone", async () => {
  const path = join(dir, "xpay.db");
  const db = openDatabase(path);
  migrate(db, MIGRATIONS.filter((m) => m.version < 25));
  for (const m of HISTORY.merchants) insert(db, "merchants", m);
  for (const a of HISTORY.accounts) insert(db, "channel_accounts", a);
  for (const o of HISTORY.orders) insert(db, "orders", o);
  db.close();
  const store = SqliteStore.open(path); // migrates
  await expectBackfilled(store);
  const indexes = (store.db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'orders'").all() as { name: string }[]).map((r) => r.name);
  for (const gone of ["orders_account_created", "orders_account_paid", "orders_paid_stats"]) expect(indexes).not.toContain(gone);
  expect(indexes).toContain("orders_created_stats"); // the orders list's totals
  expect(indexes).toContain("orders_paid_day"); // the reserved-amounts view
  store.close();
});
