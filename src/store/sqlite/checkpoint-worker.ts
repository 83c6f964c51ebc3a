// The thread that checkpoints the WAL while `xpay serve` runs (see checkpointer.ts). It has its
// own connection; a PASSIVE checkpoint never waits for the writer and never blocks it.
import { Database } from "bun:sqlite";

declare const self: Worker;

const BEAT_MS = 1000;
let db: Database | null = null;
let timer: ReturnType<typeof setInterval> | undefined;
let lastBeat = 0;

function checkpoint(): void {
  try {
    db?.query("PRAGMA wal_checkpoint(PASSIVE)").get();
  } catch (e) {
    postMessage({ error: e instanceof Error ? e.message : String(e) });
    return;
  }
  const now = Date.now();
  if (now - lastBeat >= BEAT_MS) {
    lastBeat = now;
    postMessage("beat");
  }
}

self.onmessage = (e: MessageEvent<{ path: string; everyMs: number } | "stop">) => {
  if (e.data === "stop") {
    clearInterval(timer);
    checkpoint();
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
  checkpoint();
  timer = setInterval(checkpoint, e.data.everyMs);
};
