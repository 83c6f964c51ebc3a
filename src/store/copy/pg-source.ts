// Reading a PostgreSQL database for a copy: one REPEATABLE READ READ ONLY transaction, so every
// table is read at the same instant while instances keep serving, and nothing can be written
// through it. Integers come back as bigint (the pool's `bigint` option): Bun would give an int8
// as a string otherwise.
import { SQL } from "bun";
import { PG_LATEST_VERSION, pgCurrentVersion } from "../postgres/migrate.ts";
import { describePostgresUrl } from "../postgres/url.ts";
import { pgIdentities, pgShapes } from "./pg-shape.ts";
import type { CopySource, Row, SourceSnapshot, TableShape } from "./types.ts";
import { quote } from "./values.ts";

type Tx = SQL;

export function openCopyPool(url: string): SQL {
  return new SQL(url, { max: 1, bigint: true, connectionTimeout: 10, idleTimeout: 60 });
}

export function pgSource(url: string): CopySource {
  const sql = openCopyPool(url);
  return {
    where: describePostgresUrl(url),
    latest: PG_LATEST_VERSION,
    async snapshot(read) {
      return sql.begin("isolation level repeatable read read only", async (tx) => read(await snapshot(tx))) as Promise<never>;
    },
    async close() {
      await sql.close();
    },
  };
}

async function snapshot(tx: Tx): Promise<SourceSnapshot> {
  return {
    version: await pgCurrentVersion(tx),
    tables: await pgShapes(tx),
    async count(t) {
      const [row] = await tx.unsafe(`SELECT count(*) AS n FROM ${quote(t.name)}`);
      return Number(row.n);
    },
    batches: (t, size) => batches(tx, t, size),
    async highWater() {
      // A sequence is outside the snapshot: its value now, at or above the one the snapshot saw.
      const out = new Map<string, bigint>();
      for (const id of await pgIdentities(tx)) {
        const [s] = await tx.unsafe(`SELECT last_value, is_called FROM ${id.sequence}`);
        out.set(id.table, s.is_called ? BigInt(s.last_value) : BigInt(s.last_value) - 1n);
      }
      return out;
    },
  };
}

async function* batches(tx: Tx, t: TableShape, size: number): AsyncGenerator<Row[]> {
  const cols = t.columns.map((c) => quote(c.name)).join(", ");
  const key = t.key.map(quote).join(", ");
  const keyAt = t.key.map((k) => t.columns.findIndex((c) => c.name === k));
  const after = `(${key}) > (${t.key.map((_, i) => `$${i + 1}`).join(", ")})`;
  let rows = (await tx.unsafe(`SELECT ${cols} FROM ${quote(t.name)} ORDER BY ${key} LIMIT ${size}`).values()) as Row[];
  while (rows.length > 0) {
    yield rows;
    if (rows.length < size) return;
    const last = rows.at(-1)!;
    rows = (await tx.unsafe(`SELECT ${cols} FROM ${quote(t.name)} WHERE ${after} ORDER BY ${key} LIMIT ${size}`, keyAt.map((i) => last[i])).values()) as Row[];
  }
}
