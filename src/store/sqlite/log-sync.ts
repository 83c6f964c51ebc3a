// Flushes a database's write-ahead log to the disk without a checkpoint: fdatasync(2) of the -wal
// file through a descriptor of its own (Linux flushes a file's dirty pages whichever descriptor
// wrote them). With `synchronous = NORMAL` SQLite syncs the log only when it checkpoints, so this
// is what makes the commits before it survive a power cut. The descriptor follows the file: when
// the path names another file than the one open (the log was removed and made again), the old one
// is closed and the new one opened. SQLite keeps no POSIX lock on the -wal file (its WAL locks are
// on the -shm file), so closing this descriptor releases none of the writer's locks.
import { closeSync, fdatasyncSync, fstatSync, openSync, statSync } from "node:fs";

export interface LogSync {
  /** Flushes the log; false when there is no log file (nothing written since the last close). */
  sync(): boolean;
  close(): void;
}

export function logSync(dbPath: string): LogSync {
  const path = `${dbPath}-wal`;
  let fd: number | null = null;
  const drop = () => {
    if (fd !== null) closeSync(fd);
    fd = null;
  };
  return {
    sync() {
      let ino: number;
      try {
        ino = statSync(path).ino;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
        drop();
        return false;
      }
      if (fd !== null && fstatSync(fd).ino !== ino) drop();
      fd ??= openSync(path, "r");
      fdatasyncSync(fd);
      return true;
    },
    close: drop,
  };
}
