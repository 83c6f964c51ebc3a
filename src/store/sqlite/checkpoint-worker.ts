// The thread that checkpoints the WAL while `xpay serve` runs (see checkpointer.ts). It has its
// own connection; a PASSIVE checkpoint never waits for the writer and never blocks it.
//
// Two clocks. Every `syncMs` the log is flushed to the disk (log-sync.ts): with `synchronous =
// NORMAL` a commit survives a power cut once the log is synced, so this is the window a power cut
// can take. Every `copyMs` (a longer time) a PASSIVE checkpoint copies the log into the database
// file and syncs both files: a page changed by many commits in between is copied and written back
// once, and the database file is synced less often (docs/benchmarks.md, 2026-11-29 15:59: 4-7 %
// less server CPU a create than a checkpoint every 20 ms). Should the log's flush fail, every tick
// checkpoints, as before.
//
// A PASSIVE checkpoint copies the log into the database file but cannot rewind the log while
// commits keep coming: the writer starts the log over only when, at the start of a write, every
// frame is already copied. So once the log holds `rewindPages`, the thread asks the writer to
// hold its next batch ("pause"); once it is held ("paused"), one more checkpoint copies the last
// frames with nothing racing it, and the writer goes on ("resume") from the log's beginning.
//
// That last checkpoint is the one that syncs the database file (SQLite syncs it only when a
// checkpoint copied every frame, which under load happens only in the hold), so the hold lasted as
// long as the kernel took to write back every page copied since the previous rewind: 10-40 ms on a
// fresh database, up to 85 ms past 300,000 orders (docs/benchmarks.md, 2026-11-29 17:59). Before
// asking, the thread therefore flushes the database file itself and copies again, PRESYNC_ROUNDS
// times (db-file-sync.ts): each round leaves fewer pages to write back, and the hold syncs only
// what the last few milliseconds copied (3-13 ms on a fresh database, at most 25 past 300,000
// orders). SQLite's own syncs in the hold stay what makes the rewind safe.
import { Database } from "bun:sqlite";
import { dbFileSync, type DbFileSync } from "./db-file-sync.ts";
import { logSync, type LogSync } from "./log-sync.ts";

declare const self: Worker;

const BEAT_MS = 1000;
/** Flushes of the database file, each followed by a copy, before a rewind's hold is asked for. */
const PRESYNC_ROUNDS = 2;
let db: Database | null = null;
let timer: ReturnType<typeof setInterval> | undefined;
let lastBeat = 0;
let rewindPages = 0;
/** Ticks (syncMs apart) between two copies: copyMs / syncMs, at least 1. */
let copyEvery = 1;
let ticks = 0;
let log: LogSync | null = null;
let dbFile: DbFileSync | null = null;
/** The log's flush failed once (reported): from then on every tick checkpoints. */
let syncFailed = false;
let syncs = 0;
let copies = 0;
let presyncs = 0;
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
  copies++;
  beat();
  return r;
}

/** At most once a second: the thread is alive, and how often it synced and copied. */
function beat(): void {
  const now = Date.now();
  if (now - lastBeat < BEAT_MS) return;
  lastBeat = now;
  postMessage({ beat: { syncs, copies, presyncs } });
}

function syncLog(): void {
  try {
    if (log!.sync()) syncs++;
    beat();
  } catch (e) {
    syncFailed = true;
    postMessage({ error: `cannot sync the write-ahead log (${e instanceof Error ? e.message : String(e)}); it is checkpointed at every tick instead` });
  }
}

function tick(): void {
  if (!db) return;
  // Asked for a hold and not answered yet: commits may still come, so the log is still flushed.
  if (asked) return syncFailed ? undefined : syncLog();
  if (!syncFailed && ticks++ % copyEvery !== 0) return syncLog();
  const r = checkpoint();
  if (!r || rewindPages === 0) return;
  if (rewoundAt !== null) {
    if (r.log >= rewoundAt && r.log < rewoundAt + rewindPages) return;
    rewoundAt = null;
  }
  if (r.log >= rewindPages) {
    presync();
    asked = true;
    postMessage("pause");
  }
}

/** Before a hold: the database file's dirty pages written back while the writer still commits. */
function presync(): void {
  for (let i = 0; i < PRESYNC_ROUNDS; i++) {
    if (!dbFile!.sync()) return;
    presyncs++;
    if (!checkpoint()) return;
  }
}

self.onmessage = (e: MessageEvent<{ path: string; syncMs: number; copyMs: number; rewindPages?: number } | "stop" | "paused">) => {
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
    lastBeat = 0;
    beat(); // the counts at the end
    db?.close();
    db = null;
    log?.close();
    log = null;
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
  log = logSync(e.data.path);
  dbFile = dbFileSync(e.data.path);
  rewindPages = e.data.rewindPages ?? 0;
  copyEvery = Math.max(1, Math.round(e.data.copyMs / e.data.syncMs));
  tick();
  timer = setInterval(tick, e.data.syncMs);
};
