// Statements of the hot paths (create, pay) prepared once per database and held, instead of found
// again on each call: db.query(sql) looks its cache up by the SQL text (a scan of the cached texts'
// lengths, then a string compare of a statement of several hundred characters), and that cache
// grows with every distinct statement the console and the stats ever ran. A WeakMap per statement
// keys on the Database object alone. The statement itself comes from db.query, not db.prepare:
// bun:sqlite finalizes its cached statements when the database closes, and an unfinalized one
// keeps the connection open as a zombie (no final checkpoint: the -wal file stays, and a copy of
// the main file alone holds no schema).
import type { Database, Statement } from "bun:sqlite";

export type Prepared = (db: Database) => Statement;

/** `sql` prepared on first use for each database, the same Statement after; a function is read at that first use. */
export function prepared(sql: string | (() => string)): Prepared {
  const byDb = new WeakMap<Database, Statement>();
  return (db) => {
    let s = byDb.get(db);
    if (!s) byDb.set(db, (s = db.query(typeof sql === "string" ? sql : sql())));
    return s;
  };
}
