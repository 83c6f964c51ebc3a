// Reading a SQLite database for a copy: the handle comes opened read-only (cli/database.ts openFor
// "read": query_only, or SQLite's read-only mode), and every read happens inside one read
// transaction, so a server writing meanwhile changes nothing the copy sees (WAL keeps the
// snapshot). The transaction stays open across awaits: this connection is the copy's own.
import type { Database } from "bun:sqlite";
import { currentVersion, LATEST_VERSION } from "../migrate.ts";
import { hasSequenceTable, sqliteShapes } from "./sqlite-shape.ts";
import type { CopySource, Row, SourceSnapshot, TableShape } from "./types.ts";
import { quote } from "./values.ts";

export function sqliteSource(db: Database, where: string): CopySource {
  const snapshot = (): SourceSnapshot => ({
    version: currentVersion(db),
    tables: sqliteShapes(db),
    async count(t) {
      return Number((db.query(`SELECT count(*) AS n FROM ${quote(t.name)}`).get() as { n: number }).n);
    },
    batches: (t, size) => batches(db, t, size),
    async highWater() {
      if (!hasSequenceTable(db)) return new Map();
      const rows = db.query("SELECT name, seq FROM sqlite_sequence").safeIntegers(true).all() as { name: string; seq: bigint }[];
      return new Map(rows.map((r) => [r.name, BigInt(r.seq)]));
    },
  });
  return {
    where,
    latest: LATEST_VERSION,
    async snapshot(read) {
      db.exec("BEGIN");
      try {
        // The snapshot starts at the first read; the schema version is that read.
        return await read(snapshot());
      } finally {
        db.exec("COMMIT"); // nothing was written: ends the read transaction
      }
    },
    async close() {
      db.close();
    },
  };
}

/** Keyset paging on the primary key: each batch starts after the last key of the one before. */
async function* batches(db: Database, t: TableShape, size: number): AsyncGenerator<Row[]> {
  const cols = t.columns.map((c) => quote(c.name)).join(", ");
  const key = t.key.map(quote).join(", ");
  const keyAt = t.key.map((k) => t.columns.findIndex((c) => c.name === k));
  const first = db.query(`SELECT ${cols} FROM ${quote(t.name)} ORDER BY ${key} LIMIT ?`).safeIntegers(true);
  const next = db
    .query(`SELECT ${cols} FROM ${quote(t.name)} WHERE (${key}) > (${t.key.map(() => "?").join(", ")}) ORDER BY ${key} LIMIT ?`)
    .safeIntegers(true);
  let rows = first.values(size) as Row[];
  while (rows.length > 0) {
    yield rows;
    if (rows.length < size) return;
    const last = rows.at(-1)!;
    rows = next.values(...(keyAt.map((i) => last[i]) as never[]), size) as Row[];
  }
}
