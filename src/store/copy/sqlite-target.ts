// Writing a copy into a SQLite database: the handle comes opened for writing without migrating
// (cli/database.ts openFor "create", upgrade false), so a refusal (a table holds rows) happens
// before the schema is touched. The rows go in one IMMEDIATE transaction held across awaits (the
// source is read asynchronously): this connection is the copy's own and nothing else uses it.
import type { Database, Statement } from "bun:sqlite";
import { currentVersion, LATEST_VERSION, migrate } from "../migrate.ts";
import { autoincrementTables, hasSequenceTable, sqliteShapes, sqliteTableNames } from "./sqlite-shape.ts";
import type { CopyTarget, Row, TableShape, TargetWriter } from "./types.ts";
import { quote } from "./values.ts";
import { forgetOrderKeys } from "../sqlite/order-keys.ts";

export function sqliteTarget(db: Database, where: string): CopyTarget {
  return {
    where,
    latest: LATEST_VERSION,
    async inspect() {
      return { version: currentVersion(db), tables: sqliteTableNames(db) };
    },
    async firstNonEmpty(tables) {
      return tables.find((t) => db.query(`SELECT 1 FROM ${quote(t)} LIMIT 1`).get() !== null) ?? null;
    },
    async prepare() {
      migrate(db);
      return { version: currentVersion(db), tables: sqliteShapes(db) };
    },
    async transaction(write) {
      db.exec("BEGIN IMMEDIATE");
      try {
        await write(writer(db));
        db.exec("COMMIT");
      } catch (e) {
        db.exec("ROLLBACK");
        throw e;
      }
    },
    async count(table) {
      return Number((db.query(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n);
    },
    async close() {
      db.close();
    },
  };
}

function writer(db: Database): TargetWriter {
  const inserts = new Map<string, Statement>();
  return {
    async insert(t: TableShape, rows: Row[]) {
      let stmt = inserts.get(t.name);
      if (!stmt) {
        const cols = t.columns.map((c) => quote(c.name)).join(", ");
        stmt = db.query(`INSERT INTO ${quote(t.name)} (${cols}) VALUES (${t.columns.map(() => "?").join(", ")})`);
        inserts.set(t.name, stmt);
      }
      for (const r of rows) stmt.run(...(r as never[]));
    },
    async finish(_tables, highWater) {
      // The copied orders are stored under their public numbers (copy.ts): their days are looked
      // up as they are (src/store/sqlite/order-keys.ts).
      if (db.query("SELECT 1 FROM sqlite_master WHERE name = 'order_number_key'").get()) {
        db.query("UPDATE order_number_key SET legacy_through = MAX(legacy_through, COALESCE((SELECT substr(MAX(trade_no), 1, 8) FROM orders), ''))").run();
        forgetOrderKeys(db);
      }
      // Inserting explicit ids already raised sqlite_sequence to the highest id copied; the source's
      // generator may stand higher still (rows deleted at the top): ids are never handed out twice.
      const auto = autoincrementTables(db);
      if (!hasSequenceTable(db)) return;
      const raise = db.query("UPDATE sqlite_sequence SET seq = ? WHERE name = ? AND seq < ?");
      const add = db.query("INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)");
      for (const [table, seq] of highWater) {
        if (!auto.has(table) || seq <= 0n) continue;
        raise.run(seq, table, seq);
        add.run(table, seq, table);
      }
    },
    async audit(e) {
      db.query("INSERT INTO audit_log (at, actor, action, target, ip, before_json, after_json, reason) VALUES (?, 'cli', ?, ?, '', NULL, ?, '')").run(
        e.at, e.action, e.target, JSON.stringify(e.after),
      );
    },
  };
}
