// The backup schedule's flags (`serve --backup-dir D --backup-every 24h --backup-keep 7`), checked
// once for serve and for the unit `xpay systemd` prints, so a typo is refused before either runs.
import { CliError } from "./errors.ts";

export interface BackupScheduleFlags {
  backupDir?: string;
  backupEvery?: string;
  backupKeep?: string;
}

export interface BackupSchedule {
  dir: string;
  everyMs: number;
  keep: number;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "30m", "6h", "24h", "7d" (and "90s", for a test) into milliseconds. */
export function parseDuration(value: string, flag: string): number {
  const m = /^(\d{1,6})(s|m|h|d)$/.exec(value.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2]!]! : 0;
  if (!m || ms < 1000 || ms > 366 * UNIT_MS.d!) throw new CliError(`${flag} takes a duration such as 30m, 6h or 24h (s, m, h or d; at most 366d), not ${JSON.stringify(value)}`);
  return ms;
}

export function parseKeep(value: string, flag: string): number {
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1) throw new CliError(`${flag} takes how many backups to keep, a whole number from 1, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** The schedule, or null when no --backup-dir is given; --backup-every/--backup-keep without it are refused. */
export function backupSchedule(o: BackupScheduleFlags): BackupSchedule | null {
  if (o.backupDir === undefined) {
    if (o.backupEvery !== undefined || o.backupKeep !== undefined) throw new CliError("--backup-every and --backup-keep need --backup-dir, the folder the backups go to");
    return null;
  }
  if (o.backupDir.trim() === "") throw new CliError("--backup-dir is empty; give the folder for the backups, e.g. --backup-dir /var/lib/xpay/backups");
  return { dir: o.backupDir, everyMs: parseDuration(o.backupEvery ?? "24h", "--backup-every"), keep: parseKeep(o.backupKeep ?? "7", "--backup-keep") };
}

/** The same schedule as serve's own words (for the unit's ExecStart). */
export function backupScheduleArgs(o: BackupScheduleFlags, dir: (d: string) => string = (d) => d): string[] {
  const s = backupSchedule(o);
  if (!s) return [];
  return ["--backup-dir", dir(s.dir), "--backup-every", o.backupEvery ?? "24h", "--backup-keep", String(s.keep)];
}
