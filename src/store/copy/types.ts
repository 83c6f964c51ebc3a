// The two sides of `xpay db copy`, whatever the engine: a source read in one consistent snapshot
// and a destination written in one transaction. Rows travel as plain values of three kinds, so
// no engine's driver decides a type on the way: every integer a bigint (SQLite's and PostgreSQL's
// 64-bit integers both fit, a JavaScript number would round above 2^53), text a string, a blob a
// Uint8Array, absent a null. The schema has no floating point column (money is integer cents).

export type Value = bigint | string | Uint8Array | null;
export type Row = Value[];

export type ColumnKind = "integer" | "text" | "blob";

export interface Column {
  name: string;
  kind: ColumnKind;
}

export interface TableShape {
  name: string;
  columns: Column[];
  /** Primary key columns, in key order: the source is read in this order, one batch after the other. */
  key: string[];
  /** Tables this one references (foreign keys): they are written first. */
  parents: string[];
  /** The foreign keys themselves, column by column (a copy that leaves rows out follows them to their children). */
  refs: ForeignKey[];
}

export interface ForeignKey {
  columns: string[];
  parent: string;
  parentColumns: string[];
}

/** What the source holds, read inside its snapshot. */
export interface SourceSnapshot {
  version: number;
  tables: TableShape[];
  count(table: TableShape): Promise<number>;
  /** The rows in key order, `size` at a time; only one batch is in memory. */
  batches(table: TableShape, size: number): AsyncIterable<Row[]>;
  /**
   * The highest id each id generator ever handed out (SQLite's sqlite_sequence, PostgreSQL's
   * identity sequences), which may be above the highest id left: a removed session's id must never
   * be handed out again. By table name.
   */
  highWater(): Promise<Map<string, bigint>>;
}

export interface CopySource {
  /** Describes the source for messages: a path, or a URL without its password. */
  where: string;
  /** The schema version this binary writes on this engine. */
  latest: number;
  /** Runs `read` in one read-only snapshot (a read transaction), then ends it. */
  snapshot<T>(read: (s: SourceSnapshot) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The destination inside the copy's one transaction. */
export interface TargetWriter {
  insert(table: TableShape, rows: Row[]): Promise<void>;
  /** After every table: id generators above `highWater` and every copied id, round-robin stamps above the copied ones. */
  finish(tables: TableShape[], highWater: Map<string, bigint>): Promise<void>;
  /** One audit row (who copied what from where), appended last. */
  audit(entry: { at: number; action: string; target: string; after: unknown }): Promise<void>;
}

export interface CopyTarget {
  where: string;
  latest: number;
  /** Tables with their version, before anything is written: refusals come from these. */
  inspect(): Promise<{ version: number; tables: string[] }>;
  /** The first table holding a row, or null. */
  firstNonEmpty(tables: string[]): Promise<string | null>;
  /** Creates or migrates the schema to this binary's version; returns the version and the shapes. */
  prepare(): Promise<{ version: number; tables: TableShape[] }>;
  /** Runs `write` in one transaction: committed when it returns, rolled back when it throws. */
  transaction(write: (w: TargetWriter) => Promise<void>): Promise<void>;
  count(table: string): Promise<number>;
  close(): Promise<void>;
}

/** A copy refused or failed, worded for the operator (no secret, no stack). */
export class CopyError extends Error {}
