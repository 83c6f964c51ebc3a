// The store a command's --db / XPAY_DB names: a postgres:// (or postgresql://) URL opens the
// PostgreSQL store, anything else the SQLite file, each the way the command may use it.
import type { Store } from "../core/store.ts";
import { PostgresStore } from "../store/postgres/index.ts";
import { describePostgresUrl, isPostgresUrl } from "../store/postgres/url.ts";
import { SqliteStore } from "../store/sqlite/index.ts";
import { storedSetting } from "../store/sqlite/maintenance.ts";
import { type DbAccess, openFor } from "./database.ts";
import { useTimeZone } from "./time.ts";

export function openStore(path: string, access: DbAccess, o: { upgrade?: boolean } = {}): Store {
  if (isPostgresUrl(path)) {
    // Connects and checks (or migrates) the schema in the background; the command's first unit
    // waits for it and reports a failure. The stored time zone is applied before that unit returns.
    const store = PostgresStore.open(path, { access });
    store.ready.then((r) => useTimeZone(r.timezone), () => {});
    return store;
  }
  const db = openFor(path, access, o);
  useTimeZone(storedSetting(db, "timezone"));
  return new SqliteStore(db);
}

/** --db as a message or a log line may show it: a PostgreSQL URL without its password. */
export function describeDb(path: string): string {
  return isPostgresUrl(path) ? describePostgresUrl(path) : path;
}
