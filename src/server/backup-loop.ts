// serve's own backup schedule (`--backup-dir D --backup-every 24h --backup-keep 7`): the same
// dated, rotated, online backup as `xpay backup --dir D --keep N`, run by the server, so a cron
// line is optional. The first run comes one interval after the newest backup already in the
// folder (at once when there is none or it is older), so restarts neither skip nor pile up runs.
// A failed run is kept in memory for /healthz and the backup_failed alert; it does not degrade
// /healthz (the gateway still takes payments, and a load balancer must not drop it for that).
import { backupIntoFolder, listBackups } from "../core/backup-files.ts";
import { type BackupStatus, setBackupStatus } from "../core/backup-status.ts";
import type { Gateway } from "../core/gateway.ts";

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface BackupScheduleOptions {
  dir: string;
  everyMs: number;
  keep: number;
}

export function startBackups(gw: Gateway, o: BackupScheduleOptions): { stop(): Promise<void> } {
  const newest = listBackups(o.dir).at(-1);
  const status: BackupStatus = {
    ...o,
    next: Math.max(Date.now(), newest ? newest.at + o.everyMs : 0),
    last: null,
    lastGood: newest ? { at: newest.at, file: newest.path } : null,
    failingSince: null,
  };
  setBackupStatus(gw, status);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = async () => {
    const at = Date.now();
    try {
      const r = await backupIntoFolder(gw.store, o.dir, o.keep, at);
      status.last = { at, ok: true, file: r.file, error: "", ms: r.ms, removed: r.removed.length };
      status.lastGood = { at, file: r.file };
      status.failingSince = null;
      gw.log.event("backup", { file: r.file, ms: r.ms, removed: r.removed.length });
    } catch (e) {
      const error = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ").slice(0, 300);
      status.last = { at, ok: false, file: "", error, ms: Date.now() - at, removed: 0 };
      status.failingSince ??= at;
      gw.log.error("backup.failed", { dir: o.dir, error });
    }
  };
  const schedule = () => {
    if (stopped) return;
    const wait = status.next - Date.now();
    timer = setTimeout(() => {
      // A timer waits at most ~24.8 days: a longer interval is waited out in steps.
      if (wait > MAX_TIMER_MS) return schedule();
      running = run().finally(() => {
        running = null;
        status.next = Date.now() + o.everyMs;
        schedule();
      });
    }, Math.max(0, Math.min(wait, MAX_TIMER_MS)));
    timer.unref?.();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      setBackupStatus(gw, null);
    },
  };
}
