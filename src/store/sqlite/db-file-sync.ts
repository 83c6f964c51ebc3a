// Flushes the database file's dirty pages to the disk through a descriptor SQLite already holds on
// it. It never opens or closes a descriptor of the database file: closing any descriptor of a file
// drops every POSIX lock this process holds on it, SQLite's shared lock included (SQLite locks the
// database file itself, unlike the -wal file that log-sync.ts opens and closes). The descriptor is
// found in /proc/self/fd at each call, so on a system without it (macOS, Windows) nothing is
// flushed and the caller goes on as if it had not asked: this flush only makes a later sync shorter,
// it is never what makes a commit durable. Should SQLite close that descriptor and the number be
// reused between the lookup and the flush, the flush reaches another file or fails; either is
// harmless, and a failure reads as "nothing flushed".
import { fdatasyncSync, readdirSync, readlinkSync, realpathSync } from "node:fs";

export interface DbFileSync {
  /** Flushes the database file; false when no open descriptor of it was found or the flush failed. */
  sync(): boolean;
}

export function dbFileSync(dbPath: string): DbFileSync {
  let target: string | null = null;
  return {
    sync() {
      try {
        target ??= realpathSync(dbPath);
        for (const fd of readdirSync("/proc/self/fd")) {
          let name: string;
          try {
            name = readlinkSync(`/proc/self/fd/${fd}`);
          } catch {
            continue; // the descriptor readdir itself used, closed by now
          }
          if (name !== target) continue;
          fdatasyncSync(Number(fd));
          return true;
        }
      } catch {
        // no /proc here, the file is gone, or the descriptor went away under the flush
      }
      return false;
    },
  };
}
