// The store contract on a real PostgreSQL server: a throwaway cluster for this file (test/pg),
// one database emptied before each test, and each instance a connection pool of its own.
import { SQL } from "bun";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { type PgCluster, startCluster, withPostgres } from "../pg/cluster.ts";
import { describeStore } from "./suite.ts";

withPostgres(() => {
  let cluster: PgCluster | null = null;
  let url = "";
  let admin: SQL | null = null;
  let open: PostgresStore[] = [];
  const instance = () => {
    const s = PostgresStore.open(url, { max: 4 });
    open.push(s);
    return s;
  };

  describeStore("postgres", {
    name: "PostgreSQL",
    async setup() {
      cluster = await startCluster();
      url = await cluster.createDatabase("contract");
      const first = PostgresStore.open(url); // migrates
      await first.ready;
      await first.end();
      admin = new SQL(url, { max: 1 });
    },
    async teardown() {
      await admin?.close();
      cluster?.stop();
    },
    async fresh() {
      const tables = (await admin!`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'xpay_migrations'`).map((r: { tablename: string }) => `"${r.tablename}"`);
      await admin!.unsafe(`TRUNCATE ${tables.join(", ")} RESTART IDENTITY CASCADE; ALTER SEQUENCE channel_accounts_use_seq RESTART WITH 1; INSERT INTO directory_version (id, v) VALUES (1, 0)`);
      const s = instance();
      await s.ready;
      return s;
    },
    async another() {
      return instance();
    },
    async release() {
      await Promise.all(open.map((s) => s.end()));
      open = [];
    },
  });
});
