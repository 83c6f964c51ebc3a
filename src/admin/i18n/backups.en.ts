import type { backupsZh } from "./backups.zh.ts";

export const backupsEn: Record<keyof typeof backupsZh, string> = {
  "backups.nav": "Backups",
  "backups.title": "Backups",
  "backups.intro": "Backups go into xpay serve's --backup-dir (named by UTC time, mode 0600); only the newest --backup-keep are kept. The same as the schedule and xpay backup --dir.",
  "backups.none_dir": "This server has no backup folder, so it cannot back up from here. Start it with xpay serve --backup-dir /var/lib/xpay/backups (and --backup-every 24h --backup-keep 7), or run xpay backup --dir DIR in a terminal.",
  "backups.dir": "Folder: {dir} · every {every} · keeping {keep}",
  "backups.next": "Next scheduled backup",
  "backups.last_failed": "The last backup failed: {error}",
  "backups.run": "Back up now",
  "backups.done": "Backup done: {file} ({ms} ms, {removed} old backup(s) removed).",
  "backups.failed": "The backup failed: {error}",
  "backups.col_file": "File",
  "backups.col_at": "Time",
  "backups.col_size": "Size",
  "backups.download": "Download",
  "backups.empty": "No backup in the folder yet.",
  "backups.not_found": "No such backup.",
  "backups.secret_note": "A backup holds merchant keys and operator password hashes: keep the download safe.",
};
