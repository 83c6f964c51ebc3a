// Migration 018 on SQLite: rules stored with a title pattern before it (the cases and what each
// becomes: test/store-contract/rule-titles-018.ts); the PostgreSQL twin is test/pg/rule-titles-018.test.ts.
// A disabled rule does not run: the chat from 王小明 that its title let through pays nothing.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ruleStatus } from "../../src/core/rules/operator-rules.ts";
import { migrate } from "../../src/store/migrate.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { openDatabase } from "../../src/store/db.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import { tempDir } from "../helpers.ts";
import { expectMigrated, LEGACY_TITLES, legacyRow } from "../store-contract/rule-titles-018.ts";

const dir = tempDir("xpay-018-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("titles that were literal alternations become names; every other rule is disabled with its reason", async () => {
  const path = join(dir, "xpay.db");
  const db = openDatabase(path);
  migrate(db, MIGRATIONS.filter((m) => m.version < 18));
  const insert = db.query("INSERT INTO message_rules (name, package, title, text, pay_type, created_at) VALUES ($name, $package, $title, $text, $pay_type, $created_at)");
  LEGACY_TITLES.forEach((_, i) => insert.run(Object.fromEntries(Object.entries(legacyRow(i)).map(([k, v]) => [`$${k}`, v]))));
  db.close();

  const store = SqliteStore.open(path); // migrates
  const rules = await store.rules.listRules();
  expectMigrated(rules);
  // The converted ones run (they pass today's checks); the disabled ones say why.
  expect(rules.map((r) => ruleStatus(r) === null)).toEqual(LEGACY_TITLES.map(([, names]) => names !== null));
  store.close();
});
