// Failed console logins on PostgreSQL (migration 017), the same calls as ../sqlite/admin-logins.ts.
// Every instance on the database counts into the same rows, which is what makes the login
// throttle hold across instances; the upsert takes the row's lock, so concurrent counts add up.
import type { SQL } from "bun";
import type { AdminStore, LoginFailureSummary, LoginWindows } from "../../core/admin/store.ts";
import { toLoginFailure, toWindows } from "../sqlite/admin-logins.ts";
import { unit } from "./tx.ts";

type Row = Record<string, unknown>;

export function countLogin(sql: SQL, ...[k, add, at]: Parameters<AdminStore["countLogin"]>): Promise<void> {
  if (add.failed >= 0) {
    return sql`
      INSERT INTO login_failures (user_name, device, window_start, ip, failed, refused, first_at, last_at)
      VALUES (${k.user}, ${k.device}, ${k.window}, ${k.ip}, ${add.failed}, ${add.refused}, ${at}, ${at})
      ON CONFLICT (user_name, device, window_start, ip) DO UPDATE SET
        failed = login_failures.failed + excluded.failed, refused = login_failures.refused + excluded.refused,
        first_at = LEAST(login_failures.first_at, excluded.first_at), last_at = GREATEST(login_failures.last_at, excluded.last_at)`.then(() => undefined);
  }
  // Taking back an attempt that was counted: never below 0, and a row left at 0/0 goes.
  return unit(sql, async (tx) => {
    await tx`
      UPDATE login_failures SET failed = GREATEST(0, failed + ${add.failed}::bigint), refused = refused + ${add.refused}::bigint, last_at = GREATEST(last_at, ${at}::bigint)
      WHERE user_name = ${k.user} AND device = ${k.device} AND window_start = ${k.window} AND ip = ${k.ip}`;
    await tx`
      DELETE FROM login_failures
      WHERE user_name = ${k.user} AND device = ${k.device} AND window_start = ${k.window} AND ip = ${k.ip} AND failed = 0 AND refused = 0`;
  });
}

export async function loginWindows(sql: SQL, q: Parameters<AdminStore["loginWindows"]>[0]): Promise<LoginWindows> {
  const [ip, user, device] = await Promise.all([
    sql`SELECT window_start, sum(failed) AS failed FROM login_failures WHERE ip = ${q.ip} AND device = '' AND window_start >= ${q.since} GROUP BY window_start ORDER BY window_start`,
    sql`SELECT window_start, sum(failed) AS failed FROM login_failures WHERE user_name = ${q.user} AND device = '' AND window_start >= ${q.since} GROUP BY window_start ORDER BY window_start`,
    q.device === ""
      ? Promise.resolve([])
      : sql`SELECT window_start, sum(failed) AS failed FROM login_failures WHERE device = ${q.device} AND device <> '' AND window_start >= ${q.since} GROUP BY window_start ORDER BY window_start`,
  ]);
  return { ip: toWindows(ip as Row[]), user: toWindows(user as Row[]), device: toWindows(device as Row[]) };
}

export async function listLoginFailures(sql: SQL, q: Parameters<AdminStore["listLoginFailures"]>[0]): Promise<LoginFailureSummary[]> {
  const user = q.user ?? null;
  const rows = await sql`
    SELECT * FROM login_failures WHERE window_start >= ${q.since} AND (${user}::text IS NULL OR user_name = ${user}::text)
    ORDER BY window_start DESC, failed + refused DESC, user_name, ip LIMIT ${Math.max(1, Math.min(1000, Math.trunc(q.limit) || 1))}`;
  return (rows as Row[]).map(toLoginFailure);
}

/** Rows another instance's prune holds are skipped rather than waited for. */
export async function pruneLoginFailures(sql: SQL, before: number, batch: number): Promise<number> {
  const r = await sql`
    DELETE FROM login_failures WHERE (user_name, device, window_start, ip) IN (
      SELECT user_name, device, window_start, ip FROM login_failures WHERE window_start < ${before}
      ORDER BY window_start LIMIT ${batch} FOR UPDATE SKIP LOCKED)`;
  return r.count as number;
}
