// The start check of `xpay serve` (integrity.ts) on a thread of its own, so that the server can
// stop waiting for it on a large file: PRAGMA quick_check reads every page, and a synchronous
// query cannot be interrupted from the thread that runs it.
import { Database } from "bun:sqlite";

declare const self: Worker;

const DAMAGE = /malformed|corrupt|not a database/i;

self.onmessage = (e: MessageEvent<{ path: string; maxErrors: number }>) => {
  let db: Database | null = null;
  let answer: { problems: string[] } | { error: string };
  try {
    db = new Database(e.data.path, { readonly: true });
    const rows = db.query(`PRAGMA quick_check(${Math.max(1, Math.trunc(e.data.maxErrors))})`).all() as { quick_check: string }[];
    answer = { problems: rows.map((r) => r.quick_check).filter((v) => v !== "ok") };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // A page so damaged that the check itself stops is a finding; anything else means no answer.
    answer = DAMAGE.test(message) ? { problems: [message] } : { error: message };
  } finally {
    // Closed before answering: the caller terminates this thread on the answer, and a connection
    // left open keeps the writer's close from being the last (facts-reader.ts closeConnection).
    db?.close();
  }
  postMessage(answer);
};
