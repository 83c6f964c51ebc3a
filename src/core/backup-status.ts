// What serve's backup schedule did last, per gateway, in memory: /healthz shows it, and the alert
// pass turns a failing schedule into a `backup_failed` alert (resolved by the next good backup).
// It lives with the process that runs the schedule: another instance, or a restart, starts afresh
// (the files in the folder are the lasting record).
import type { Gateway } from "./gateway.ts";
import type { Finding } from "./alerts/types.ts";

export interface BackupStatus {
  dir: string;
  everyMs: number;
  keep: number;
  /** Unix ms of the next run. */
  next: number;
  last: null | { at: number; ok: boolean; file: string; error: string; ms: number; removed: number };
  /** The last good backup (unix ms, file), also when the last run failed. */
  lastGood: null | { at: number; file: string };
  /** Unix ms of the first failure of the current run of failures. */
  failingSince: number | null;
}

const statuses = new WeakMap<Gateway, BackupStatus>();

export function setBackupStatus(gw: Gateway, s: BackupStatus | null): void {
  if (s) statuses.set(gw, s);
  else statuses.delete(gw);
}

export function backupStatus(gw: Gateway): BackupStatus | null {
  return statuses.get(gw) ?? null;
}

/** The finding while the schedule's last run failed; null when it succeeded or has not run. */
export function backupFinding(s: BackupStatus): Finding | null {
  if (!s.last || s.last.ok || s.failingSince === null) return null;
  const good = s.lastGood ? `The last good backup is ${s.lastGood.file}.` : "No backup of this server's schedule has succeeded yet.";
  return {
    key: "backup_failed:schedule",
    condition: "backup_failed",
    title: `The scheduled backup into ${s.dir} failed`,
    detail: `${s.last.error}. ${good} The next try is at the next interval; a full disk or a folder the service may not write are the usual causes.`,
    since: Math.floor(s.failingSince / 1000),
    refs: {},
    command: `xpay backup --dir ${s.dir} --keep ${s.keep}; df -h ${s.dir}; curl -s <base url>/healthz`,
  };
}

/** What /healthz shows of the schedule. */
export function backupHealth(s: BackupStatus): Record<string, unknown> {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    dir: s.dir,
    every_s: s.everyMs / 1000,
    keep: s.keep,
    status: s.last === null ? "pending" : s.last.ok ? "ok" : "failed",
    ...(s.last ? { last_at: iso(s.last.at), last_file: s.last.file, ...(s.last.ok ? {} : { error: s.last.error }) } : {}),
    ...(s.lastGood && (!s.last || !s.last.ok) ? { last_good_at: iso(s.lastGood.at), last_good_file: s.lastGood.file } : {}),
    next_at: iso(s.next),
  };
}
