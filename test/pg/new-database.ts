// A new database of a test file's cluster with the store open on it, for the tests that also read
// or set something behind the store's back (plans, pages, counters).
import { SQL } from "bun";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import type { PgCluster } from "./cluster.ts";

/** The store (migrated) and one plain connection beside it, on a new database; both closed after `body`. */
export async function onNewDatabase<T>(cluster: () => PgCluster, name: string, o: { max: number }, body: (store: PostgresStore, sql: SQL) => Promise<T>): Promise<T> {
  const url = await cluster().createDatabase(name);
  const store = PostgresStore.open(url, { max: o.max });
  const sql = new SQL(url, { max: 1 });
  try {
    return await body(store, sql);
  } finally {
    await store.end();
    await sql.close();
  }
}
