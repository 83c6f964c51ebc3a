// One look at a PostgreSQL database before anything is written to it: whether it holds tables at
// all, and one stored setting. `xpay dev` uses it to refuse an operator's database (its public test
// merchant and keys must never land there), as it opens a SQLite file read-only for the same check.
import { SQL } from "bun";

export interface Peek {
  /** Any table in the current schema (an xpay database or another application's). */
  hasTables: boolean;
  /** The setting's value; undefined when there is no settings table or no such key. */
  value: string | undefined;
}

export async function peekSetting(url: string, key: string): Promise<Peek> {
  const sql = new SQL(url, { max: 1, connectionTimeout: 10 });
  try {
    const [row] = await sql`SELECT (SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()) AS n, to_regclass('settings') IS NOT NULL AS settings`;
    if (row.settings !== true) return { hasTables: Number(row.n) > 0, value: undefined };
    const [setting] = await sql`SELECT value FROM settings WHERE key = ${key}`;
    return { hasTables: true, value: setting ? String(setting.value) : undefined };
  } finally {
    await sql.close();
  }
}
