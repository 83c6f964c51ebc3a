// Every value is checked against its column before it is written: the destination's driver must
// never decide on its own what a value becomes. PostgreSQL would round a fraction into a BIGINT
// column without a word (12.5 becomes 12), and SQLite keeps whatever a column is given, so a value
// of the wrong kind stops the copy (nothing is committed) with the table, column and row named,
// never the value itself (it may be a secret).
import { type Column, CopyError, type Row, type TableShape } from "./types.ts";

function describe(v: unknown): string {
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a fraction";
  if (v instanceof Uint8Array) return "a blob";
  return `a ${typeof v}`;
}

function checked(v: unknown, c: Column): Row[number] {
  if (v === null || v === undefined) return null;
  if (c.kind === "integer") {
    if (typeof v === "bigint") return v;
    if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
  } else if (c.kind === "text") {
    if (typeof v === "string") return v;
  } else if (v instanceof Uint8Array) {
    return v;
  }
  throw new CopyError(`${describe(v)} in a ${c.kind} column`);
}

/** The row as the copy writes it (integers as bigint); throws naming where a value does not fit. */
export function checkRow(table: TableShape, raw: unknown[], rowNumber: number): Row {
  const row: Row = new Array(table.columns.length);
  for (let i = 0; i < table.columns.length; i++) {
    const c = table.columns[i]!;
    try {
      row[i] = checked(raw[i], c);
    } catch (e) {
      throw new CopyError(`table ${table.name}, column ${c.name}, row ${rowNumber} (in key order): ${(e as Error).message}; correct that row in the source, then copy again`);
    }
  }
  return row;
}

/** Double quotes around a catalog name (a column is called `key`, another `text`). */
export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
