// Rotating backups in a folder (`xpay backup --dir D --keep N`, serve's --backup-dir schedule):
// xpay names each file after the moment it was taken, in UTC, so names sort in time order, and
// removes only files of its own naming, oldest first, once a new one is complete. Anything else in
// the folder (the operator's own copies, another program's files) is never touched.
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "./store.ts";

/** xpay-2026-11-26T213000Z.db, and xpay-2026-11-26T213000Z-2.db for a second one in the same second. */
export const BACKUP_NAME = /^xpay-(\d{4}-\d{2}-\d{2}T\d{6}Z)(?:-(\d{1,3}))?\.db$/;

export function backupName(ms: number, n = 1): string {
  const iso = new Date(ms).toISOString(); // 2026-11-26T21:30:00.000Z
  const stamp = `${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return `xpay-${stamp}${n > 1 ? `-${n}` : ""}.db`;
}

/** When a backup of that name was taken (ms), or null for a name that is not xpay's. */
export function backupTime(name: string): number | null {
  const m = BACKUP_NAME.exec(name);
  if (!m) return null;
  const s = m[1]!;
  return Date.parse(`${s.slice(0, 10)}T${s.slice(11, 13)}:${s.slice(13, 15)}:${s.slice(15, 17)}Z`);
}

/** xpay's backups in `dir`, oldest first. */
export function listBackups(dir: string): { name: string; path: string; at: number }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const order = (name: string) => Number(BACKUP_NAME.exec(name)?.[2] ?? 1);
  return names
    .filter((n) => BACKUP_NAME.test(n) && statSync(join(dir, n), { throwIfNoEntry: false })?.isFile())
    .map((name) => ({ name, path: join(dir, name), at: backupTime(name)! }))
    .sort((a, b) => a.at - b.at || order(a.name) - order(b.name));
}

export interface RotatedBackup {
  file: string;
  /** Older backups removed to keep `keep`. */
  removed: string[];
  ms: number;
}

/**
 * One backup into `dir` (made 0700 if missing) under a dated name, then the oldest of xpay's own
 * beyond `keep` removed. The store writes the file (online, mode 0600); a failed backup removes
 * nothing, so the backups kept are always complete ones.
 */
export async function backupIntoFolder(store: Pick<Store, "backupTo">, dir: string, keep: number, now = Date.now()): Promise<RotatedBackup> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const started = performance.now();
  let file = "";
  for (let n = 1; ; n++) {
    file = join(dir, backupName(now, n));
    if (!statSync(file, { throwIfNoEntry: false })) break;
    if (n > 100) throw new Error(`too many backups named for ${new Date(now).toISOString()} in ${dir}`);
  }
  await store.backupTo(file);
  const all = listBackups(dir);
  const removed = all.slice(0, Math.max(0, all.length - keep)).map((b) => b.path).filter((p) => p !== file);
  for (const p of removed) rmSync(p, { force: true });
  return { file, removed, ms: Math.round(performance.now() - started) };
}
