// Every sub-port the SQLite store has exists on the PostgreSQL store: built, or refusing with a line
// that names what is missing (a sub-port added to Store later cannot be forgotten silently).
import { expect, test } from "bun:test";
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { NotOnPostgresError } from "../../src/store/postgres/unsupported.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";

const sqlitePorts = Object.entries(Object.getOwnPropertyDescriptors(SqliteStore.prototype))
  .filter(([, d]) => d.get !== undefined)
  .map(([name]) => name)
  .sort();

/** Ported to PostgreSQL (their operations are in the store contract suite, test/store-contract). */
const BUILT = ["admin", "browse", "stats", "alerts", "rules", "slots", "dev", "devices"];

test("the PostgreSQL store has each of SQLite's sub-ports; each not built yet refuses by name", async () => {
  expect(sqlitePorts).toContain("admin");
  const store = PostgresStore.open("postgres://nobody@127.0.0.1:1/none"); // never connects: nothing awaits it
  try {
    for (const port of sqlitePorts) {
      const sub = (store as unknown as Record<string, Record<string, () => unknown>>)[port];
      expect({ port, present: sub !== undefined }).toEqual({ port, present: true });
      if (BUILT.includes(port)) {
        expect(sub!.anything).toBeUndefined(); // a real adapter, not the refusing one
        continue;
      }
      let thrown: unknown = null;
      try {
        sub!.anything!();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(NotOnPostgresError);
      expect((thrown as Error).message).toStartWith("not supported on PostgreSQL yet: ");
      expect((thrown as Error).message).toEndWith(`(store.${port}.anything)`);
    }
    expect(await Promise.resolve(store.stats)).toBe(store.stats); // not a thenable
  } finally {
    await store.end();
  }
});
