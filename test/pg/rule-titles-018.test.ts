// Migration 018 on PostgreSQL, as on SQLite (test/store/rule-titles-018.test.ts, the cases in
// test/store-contract/rule-titles-018.ts): a database at 014 with rules whose titles are patterns,
// opened by this xpay: literal alternations become names, the rest are disabled with the reason.
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { ruleStatus } from "../../src/core/rules/operator-rules.ts";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { pgMigrate } from "../../src/store/postgres/migrate.ts";
import { PG_MIGRATIONS } from "../../src/store/postgres/migrations/index.ts";
import { expectMigrated, LEGACY_TITLES, legacyRow } from "../store-contract/rule-titles-018.ts";
import { clusterPerFile, withPostgres } from "./cluster.ts";

withPostgres(() => {
  const cluster = clusterPerFile();

  test("titles that were literal alternations become names; every other rule is disabled with its reason", async () => {
    const url = await cluster().createDatabase("titles018");
    const sql = new SQL(url, { max: 1 });
    await pgMigrate(sql, PG_MIGRATIONS.filter((m) => m.version < 18));
    for (const [i] of LEGACY_TITLES.entries()) await sql`INSERT INTO message_rules ${sql(legacyRow(i))}`;
    await sql.close();

    const store = PostgresStore.open(url); // migrates
    await store.ready;
    const rules = await store.rules.listRules();
    expectMigrated(rules);
    expect(rules.map((r) => ruleStatus(r) === null)).toEqual(LEGACY_TITLES.map(([, names]) => names !== null));
    await store.end();
  }, 60_000);
});
