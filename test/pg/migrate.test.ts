// PostgreSQL migrations: instances started together on an empty database apply each version once;
// the PostgreSQL schema mirrors SQLite's (same tables, same columns); a reader never migrates.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { PG_MIGRATIONS } from "../../src/store/postgres/migrations/index.ts";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { migrate } from "../../src/store/migrate.ts";
import { POSTGRES_ONLY_TABLES, SQLITE_ONLY_TABLES } from "../../src/store/copy/plan.ts";
import { type PgCluster, startCluster, withPostgres } from "./cluster.ts";

const LATEST = MIGRATIONS.at(-1)!.version;

withPostgres(() => {
  describe("PostgreSQL migrations", () => {
    let cluster: PgCluster;
    beforeAll(async () => {
      cluster = await startCluster();
    }, 120_000);
    afterAll(() => cluster?.stop());

    test("versions are numbered as SQLite's: the same numbers and names, in order", () => {
      expect(PG_MIGRATIONS.map((m) => [m.version, m.name])).toEqual(MIGRATIONS.slice(0, PG_MIGRATIONS.length).map((m) => [m.version, m.name]));
    });

    test("three instances starting on an empty database apply each migration once", async () => {
      const url = await cluster.createDatabase("together");
      const stores = [PostgresStore.open(url), PostgresStore.open(url), PostgresStore.open(url)];
      const ready = await Promise.all(stores.map((s) => s.ready));
      expect(ready.map((r) => r.version)).toEqual([LATEST, LATEST, LATEST]);
      const sql = new SQL(url, { max: 1 });
      expect((await sql`SELECT version FROM xpay_migrations ORDER BY version`).map((r: { version: number }) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      await sql.close();
      await Promise.all(stores.map((s) => s.end()));
    });

    test("the tables and columns are SQLite's at the same version", async () => {
      const url = await cluster.createDatabase("mirror");
      const store = PostgresStore.open(url);
      await store.ready;
      await store.end();
      const sql = new SQL(url, { max: 1 });
      const pgRows = (await sql`
        SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> 'xpay_migrations'`) as { table_name: string; column_name: string }[];
      await sql.close();
      const sqlite = new Database(":memory:");
      migrate(sqlite, MIGRATIONS.slice(0, PG_MIGRATIONS.length));
      const all = (sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((t) => t.name);
      // SQLite's one exception: the key its new orders' numbers are made with (migration 041).
      expect(all.filter((t) => SQLITE_ONLY_TABLES.has(t))).toEqual([...SQLITE_ONLY_TABLES]);
      const tables = all.filter((t) => !SQLITE_ONLY_TABLES.has(t));
      const liteRows = tables.flatMap((t) => (sqlite.query(`PRAGMA table_info(${t})`).all() as { name: string }[]).map((c) => `${t}.${c.name}`));
      sqlite.close();
      // PostgreSQL's exception, named: its pending rows of the rollup (migration 039).
      const shared = pgRows.filter((r) => !POSTGRES_ONLY_TABLES.has(r.table_name));
      expect(pgRows.some((r) => POSTGRES_ONLY_TABLES.has(r.table_name))).toBe(true);
      expect(shared.map((r) => `${r.table_name}.${r.column_name}`).sort()).toEqual(liteRows.sort());
    });

    test("the named indexes are SQLite's at the same version (partial ones included)", async () => {
      const url = await cluster.createDatabase("indexes");
      const store = PostgresStore.open(url);
      await store.ready;
      await store.end();
      const sql = new SQL(url, { max: 1 });
      // Constraint indexes (primary keys, UNIQUE) are named by each engine its own way; operators_name
      // stands in for SQLite's UNIQUE COLLATE NOCASE column (PostgreSQL has no NOCASE).
      const pg = (await sql`
        SELECT indexname AS name, indexdef AS def FROM pg_indexes
        WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key' AND indexname <> 'operators_name'`) as { name: string; def: string }[];
      await sql.close();
      const sqlite = new Database(":memory:");
      migrate(sqlite, MIGRATIONS.slice(0, PG_MIGRATIONS.length));
      const lite = sqlite.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as { name: string; sql: string }[];
      sqlite.close();
      // The one index only PostgreSQL keeps: the payer address's. SQLite tests the address inside
      // its totals index instead (its 040); PostgreSQL's plain index scan would read every order's row
      // before that test (its 040).
      const postgresOnly = ["orders_by_clientip"];
      expect(pg.map((i) => i.name).filter((n) => !postgresOnly.includes(n)).sort()).toEqual(lite.map((i) => i.name).sort());
      expect(postgresOnly.filter((n) => !pg.some((i) => i.name === n))).toEqual([]);
      const partial = (defs: { name: string; def?: string; sql?: string }[]) => defs.filter((i) => /\bWHERE\b/i.test(i.def ?? i.sql ?? "")).map((i) => i.name).sort();
      expect(partial(pg)).toEqual(partial(lite));
    });

    test("a reader on an older schema refuses and writes nothing", async () => {
      const url = await cluster.createDatabase("older");
      const sql = new SQL(url, { max: 1 });
      await sql.unsafe(PG_MIGRATIONS[0]!.sql);
      await sql`CREATE TABLE xpay_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`;
      await sql`INSERT INTO xpay_migrations VALUES (1, 'init', 0)`;
      const reader = PostgresStore.open(url, { access: "read" });
      await expect(reader.listMerchants()).rejects.toThrow(`schema version 1, older than this xpay (${LATEST}); run \`xpay migrate\``);
      await reader.end();
      expect((await sql`SELECT count(*) AS n FROM xpay_migrations`)[0].n).toBe("1");
      await sql.close();
    });
  });
});
