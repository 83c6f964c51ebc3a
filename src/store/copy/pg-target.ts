// Writing a copy into a PostgreSQL database: refused when another application's tables are there
// or a table holds rows (checked before the schema is touched), migrated, then every row in one
// transaction. Ids are copied as they are (OVERRIDING SYSTEM VALUE), so afterwards each identity
// sequence is set above every copied id, and the round-robin stamp's sequence above every stamp:
// the next insert of any instance neither collides nor jumps the queue of accounts. The income
// rollup the destination's triggers rebuilt is folded before the commit.
import type { SQL } from "bun";
import { PG_LATEST_VERSION, pgCurrentVersion, pgMigrate, refuseForeign } from "../postgres/migrate.ts";
import { foldRollup } from "../postgres/rollup-fold.ts";
import { describePostgresUrl } from "../postgres/url.ts";
import { pgFreeSequences, pgIdentities, pgShapes, pgTableNames } from "./pg-shape.ts";
import { openCopyPool } from "./pg-source.ts";
import { CopyError, type CopyTarget, type Row, type TableShape, type TargetWriter } from "./types.ts";
import { quote } from "./values.ts";

/** Sequences no column owns, and the column whose values each must stay above (migration 002). */
const STAMPS: Readonly<Record<string, { table: string; column: string }>> = {
  channel_accounts_use_seq: { table: "channel_accounts", column: "use_seq" },
};

/** Bind parameters per INSERT statement, under PostgreSQL's 65535. */
const MAX_PARAMS = 30_000;

export function pgTarget(url: string): CopyTarget {
  const sql = openCopyPool(url);
  return {
    where: describePostgresUrl(url),
    latest: PG_LATEST_VERSION,
    async inspect() {
      await refuseForeign(sql);
      return { version: await pgCurrentVersion(sql), tables: await pgTableNames(sql) };
    },
    async firstNonEmpty(tables) {
      for (const t of tables) if ((await sql.unsafe(`SELECT 1 FROM ${quote(t)} LIMIT 1`)).length > 0) return t;
      return null;
    },
    async prepare() {
      await pgMigrate(sql);
      return { version: await pgCurrentVersion(sql), tables: await pgShapes(sql) };
    },
    async transaction(write) {
      await sql.begin(async (tx) => write(writer(tx)));
    },
    async count(table) {
      const [row] = await sql.unsafe(`SELECT count(*) AS n FROM ${quote(table)}`);
      return Number(row.n);
    },
    async close() {
      await sql.close();
    },
  };
}

function writer(tx: SQL): TargetWriter {
  return {
    async insert(t: TableShape, rows: Row[]) {
      const width = t.columns.length;
      const per = Math.max(1, Math.floor(MAX_PARAMS / width));
      const head = `INSERT INTO ${quote(t.name)} (${t.columns.map((c) => quote(c.name)).join(", ")}) OVERRIDING SYSTEM VALUE VALUES `;
      for (let at = 0; at < rows.length; at += per) {
        const part = rows.slice(at, at + per);
        const params: Row[number][] = [];
        const tuples = part.map((r, i) => {
          for (let j = 0; j < width; j++) {
            const v = r[j]!;
            if (typeof v === "string" && v.includes("\0")) {
              throw new CopyError(`table ${t.name}, column ${t.columns[j]!.name}: a text holds a NUL character, which PostgreSQL's text cannot store; correct that row in the source, then copy again`);
            }
            params.push(v);
          }
          return `(${t.columns.map((_, j) => `$${i * width + j + 1}`).join(", ")})`;
        });
        await tx.unsafe(head + tuples.join(", "), params);
      }
    },
    async finish(tables, highWater) {
      const copied = new Set(tables.map((t) => t.name));
      for (const id of await pgIdentities(tx)) {
        if (!copied.has(id.table)) continue;
        const [m] = await tx.unsafe(`SELECT COALESCE(MAX(${quote(id.column)}), 0) AS m FROM ${quote(id.table)}`);
        const top = [BigInt(m.m), highWater.get(id.table) ?? 0n].reduce((a, b) => (a > b ? a : b));
        // setval(seq, v) hands out v + 1 next; an empty table with no history starts at 1.
        if (top > 0n) await tx.unsafe("SELECT setval($1::regclass, $2::bigint, true)", [id.sequence, top]);
        else await tx.unsafe("SELECT setval($1::regclass, 1, false)", [id.sequence]);
      }
      for (const name of await pgFreeSequences(tx)) {
        const stamp = STAMPS[name];
        if (!stamp) throw new CopyError(`sequence ${name} has no rule in db copy (src/store/copy/pg-target.ts STAMPS); nothing was copied`);
        await tx.unsafe(`SELECT setval($1::regclass, GREATEST((SELECT MAX(${quote(stamp.column)}) FROM ${quote(stamp.table)}), 0) + 1, false)`, [name]);
      }
      // The copied orders' income counts came in as the rollup's pending rows (migration 039): folded
      // in this transaction, so the copy commits a whole rollup, and `xpay stats` on it before any
      // server runs reads no million pending rows.
      await foldRollup(tx);
    },
    async audit(e) {
      await tx.unsafe("INSERT INTO audit_log (at, actor, action, target, ip, before_json, after_json, reason) VALUES ($1, 'cli', $2, $3, '', NULL, $4, '')", [
        BigInt(e.at), e.action, e.target, JSON.stringify(e.after),
      ]);
    },
  };
}
