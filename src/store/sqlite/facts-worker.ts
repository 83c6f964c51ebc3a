// The thread that reads the alert conditions' facts (alert-facts.ts readFacts) while `xpay serve`
// runs, on a read-only connection of its own (see facts-reader.ts).
import type { Database } from "bun:sqlite";
import type { FactQuery } from "../../core/alerts/store.ts";
import { openDatabaseReadOnly } from "../db.ts";
import { readFacts } from "./alert-facts.ts";

declare const self: Worker;

let db: Database | null = null;

self.onmessage = (e: MessageEvent<{ path: string } | { close: Int32Array } | { id: number; q: FactQuery }>) => {
  const m = e.data;
  if ("close" in m) {
    // The store is closing (facts-reader.ts closeConnection): it waits for this.
    db?.close();
    db = null;
    Atomics.store(m.close, 0, 1);
    Atomics.notify(m.close, 0);
    return;
  }
  if ("path" in m) {
    try {
      db = openDatabaseReadOnly(m.path);
    } catch (err) {
      postMessage({ fatal: `cannot open ${m.path}: ${err instanceof Error ? err.message : String(err)}` });
    }
    return;
  }
  if (!db) return postMessage({ fatal: "the database is not open" });
  try {
    postMessage({ id: m.id, facts: readFacts(db, m.q) });
  } catch (err) {
    postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
};
