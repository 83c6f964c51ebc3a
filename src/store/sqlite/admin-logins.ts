// Failed console logins on bun:sqlite (migration 017): counters per (user name, browser, minute,
// address), what the login throttle reads, the console's and the CLI's listing, the prune. Each
// call is one statement or one transaction; the rules (limits, windows) stay in core/admin.
import type { Database } from "bun:sqlite";
import type { AdminStore, LoginFailureSummary, LoginWindows, WindowCount } from "../../core/admin/store.ts";
import { inTransaction } from "./transaction.ts";

type Row = Record<string, unknown>;

/** Row mappers, shared with the PostgreSQL adapter. */
export function toLoginFailure(r: Row): LoginFailureSummary {
  return {
    user: String(r.user_name),
    device: String(r.device),
    window: Number(r.window_start),
    ip: String(r.ip),
    failed: Number(r.failed),
    refused: Number(r.refused),
    firstAt: Number(r.first_at),
    lastAt: Number(r.last_at),
  };
}

export const toWindows = (rows: Row[]): WindowCount[] => rows.map((r) => ({ window: Number(r.window_start), failed: Number(r.failed) }));

const KEY = "user_name = $user AND device = $device AND window_start = $window AND ip = $ip";

export function countLogin(db: Database, ...[key, add, at]: Parameters<AdminStore["countLogin"]>): void {
  const k = { user: key.user, device: key.device, window: key.window, ip: key.ip };
  inTransaction(db, () => {
    if (add.failed >= 0) {
      db.query(
        `INSERT INTO login_failures (user_name, device, window_start, ip, failed, refused, first_at, last_at)
         VALUES ($user, $device, $window, $ip, $failed, $refused, $at, $at)
         ON CONFLICT (user_name, device, window_start, ip) DO UPDATE SET
           failed = failed + excluded.failed, refused = refused + excluded.refused,
           first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at)`,
      ).run({ ...k, failed: add.failed, refused: add.refused, at });
      return;
    }
    // Taking back an attempt that was counted: never below 0, and a row left at 0/0 goes.
    db.query(`UPDATE login_failures SET failed = max(0, failed + $failed), refused = refused + $refused, last_at = max(last_at, $at) WHERE ${KEY}`).run({
      ...k, failed: add.failed, refused: add.refused, at,
    });
    db.query(`DELETE FROM login_failures WHERE ${KEY} AND failed = 0 AND refused = 0`).run(k);
  });
}

export function loginWindows(db: Database, q: Parameters<AdminStore["loginWindows"]>[0]): LoginWindows {
  const sum = (where: string, args: Record<string, string | number>) =>
    toWindows(db.query(`SELECT window_start, sum(failed) AS failed FROM login_failures WHERE ${where} AND window_start >= $since GROUP BY window_start ORDER BY window_start`).all({ ...args, since: q.since }) as Row[]);
  return {
    ip: sum("ip = $ip AND device = ''", { ip: q.ip }),
    user: sum("user_name = $user AND device = ''", { user: q.user }),
    device: q.device === "" ? [] : sum("device = $device AND device <> ''", { device: q.device }),
  };
}

export function listLoginFailures(db: Database, q: Parameters<AdminStore["listLoginFailures"]>[0]): LoginFailureSummary[] {
  const rows = db
    .query(
      `SELECT * FROM login_failures WHERE window_start >= $since AND ($user IS NULL OR user_name = $user)
       ORDER BY window_start DESC, failed + refused DESC, user_name, ip LIMIT $limit`,
    )
    .all({ since: q.since, user: q.user ?? null, limit: Math.max(1, Math.min(1000, Math.trunc(q.limit) || 1)) }) as Row[];
  return rows.map(toLoginFailure);
}

export function pruneLoginFailures(db: Database, before: number, batch: number): number {
  return db
    .query("DELETE FROM login_failures WHERE rowid IN (SELECT rowid FROM login_failures WHERE window_start < $before ORDER BY window_start LIMIT $batch)")
    .run({ before, batch }).changes;
}
