// The store keeps SQLite's temporary files in memory: each create of a group commit runs in a
// savepoint, and a statement journal spilled to a temp file past 64 KiB cost a create about a
// fifth of its CPU time in syscalls once migrations 010 and 011 added their indexes
// (bench/console-indexes.ts, docs/benchmarks.md).
import { expect, test } from "bun:test";
import { openDatabase } from "../../src/store/db.ts";
import type { SqliteStore } from "../../src/store/sqlite/index.ts";
import { harness } from "../helpers.ts";

test("every read-write connection keeps temp files (statement journals) in memory", () => {
  const db = openDatabase(":memory:");
  expect(db.query("PRAGMA temp_store").get()).toEqual({ temp_store: 2 });
  db.close();
  const h = harness();
  try {
    expect((h.gw.store as SqliteStore).db.query("PRAGMA temp_store").get()).toEqual({ temp_store: 2 });
  } finally {
    h.close();
  }
});
