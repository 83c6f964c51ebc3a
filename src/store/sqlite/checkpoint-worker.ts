// The thread that checkpoints the WAL while `xpay serve` runs (see checkpointer.ts). It has its
// own connection; a PASSIVE checkpoint never waits for the writer and never blocks it.
//
// A PASSIVE checkpoint copies the log into the database file but cannot rewind the log while
// commits keep coming: the writer starts the log over only when, at the start of a write, every
// frame is already copied. So once the log holds `rewindPages`, the thread asks the writer to
// hold its next batch ("pause"); once it is held ("paused"), one more checkpoint copies the last
// frames with nothing racing it, and the writer goes on ("resume") from the log's beginning.
import { Database } from "bun:sqlite";

declare const self: Worker;

const BEAT_MS = 1000;
let db: Database | null = null;
let timer: ReturnType<typeof setInterval> | undefined;
let lastBeat = 0;
let rewindPages = 0;
let asked = false;
/** The log's length at the last rewind: the writer starts it over at its next commit. Until a
 * checkpoint sees it shorter (or a whole rewind's worth longer: it did not start over), no new ask. */
let rewoundAt: number | null = null;

/** The frames in the log and the frames copied, or null when the checkpoint failed (reported). */
function checkpoint(): { log: number; checkpointed: number } | null {
  let r: { log: number; checkpointed: number };
  try {
    r = db!.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { log: number; checkpointed: number };
  } catch (e) {
    postMessage({ error: e instanceof Error ? e.message : String(e) });
    return null;
  }
  const now = Date.now();
  if (now - lastBeat >= BEAT_MS) {
    lastBeat = now;
    postMessage("beat");
  }
  return r;
}

function tick(): void {
  if (!db || asked) return;
  const r = checkpoint();
  if (!r || rewindPages === 0) return;
  if (rewoundAt !== null) {
    if (r.log >= rewoundAt && r.log < rewoundAt + rewindPages) return;
    rewoundAt = null;
  }
  if (r.log >= rewindPages) {
    asked = true;
    postMessage("pause");
  }
}

self.onmessage = (e: MessageEvent<{ path: string; everyMs: number; rewindPages?: number } | "stop" | "paused">) => {
  if (e.data === "paused") {
    // The writer holds its batch: nothing commits while this copies the last frames.
    const r = db ? checkpoint() : null;
    rewoundAt = r && r.checkpointed === r.log ? r.log : null;
    asked = false;
    postMessage("resume");
    return;
  }
  if (e.data === "stop") {
    clearInterval(timer);
    if (db) checkpoint();
    db?.close();
    db = null;
    postMessage("stopped");
    return;
  }
  try {
    db = new Database(e.data.path);
    db.exec("PRAGMA synchronous = NORMAL");
  } catch (err) {
    postMessage({ error: `cannot open ${e.data.path}: ${err instanceof Error ? err.message : String(err)}` });
    return;
  }
  rewindPages = e.data.rewindPages ?? 0;
  tick();
  timer = setInterval(tick, e.data.everyMs);
};
