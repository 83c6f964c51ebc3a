// Merchants and operator settings on PostgreSQL.
import type { SQL } from "bun";
import type { Merchant } from "../../core/types.ts";
import { toMerchant } from "../rows.ts";
import { lock, Lock, unit } from "./tx.ts";

/** The next pid (1001 on an empty table) is read under a lock: two instances never pick the same. */
export function addMerchant(sql: SQL, m: { pid?: number; name: string; secret: string; now: number }): Promise<Merchant> {
  return unit(sql, async (tx) => {
    await lock(tx, Lock.merchants);
    const [row] = await tx`
      INSERT INTO merchants (pid, name, secret, created_at)
      VALUES (COALESCE(${m.pid ?? null}::bigint, (SELECT GREATEST(COALESCE(MAX(pid) + 1, 1001), 1001) FROM merchants)), ${m.name}, ${m.secret}, ${m.now})
      RETURNING *`;
    return toMerchant(row);
  });
}

export async function getMerchant(sql: SQL, pid: number): Promise<Merchant | null> {
  const rows = await sql`SELECT * FROM merchants WHERE pid = ${pid}`;
  return rows.length ? toMerchant(rows[0]) : null;
}

export async function listMerchants(sql: SQL): Promise<Merchant[]> {
  return (await sql`SELECT * FROM merchants ORDER BY pid`).map(toMerchant);
}

export async function updateMerchant(
  sql: SQL,
  pid: number,
  patch: Partial<Pick<Merchant, "name" | "active" | "notifyMethod" | "rsaPublicKey" | "settings" | "secret">>,
): Promise<Merchant | null> {
  const active = patch.active === undefined ? null : patch.active ? 1 : 0;
  const rows = await sql`
    UPDATE merchants SET
      name = COALESCE(${patch.name ?? null}::text, name),
      secret = COALESCE(${patch.secret ?? null}::text, secret),
      active = COALESCE(${active}::int, active),
      notify_method = COALESCE(${patch.notifyMethod ?? null}::text, notify_method),
      rsa_public_key = CASE WHEN ${patch.rsaPublicKey !== undefined}::boolean THEN ${patch.rsaPublicKey ?? null}::text ELSE rsa_public_key END,
      settings = COALESCE(${patch.settings ? JSON.stringify(patch.settings) : null}::text, settings)
    WHERE pid = ${pid} RETURNING *`;
  return rows.length ? toMerchant(rows[0]) : null;
}

/** Every order a merchant ever created, from the day rollup (migration 025) and its pending rows (039): a row per day and account, not per order. */
export async function merchantOrderTotal(sql: SQL, pid: number): Promise<number> {
  const [row] = await sql`
    SELECT (SELECT COALESCE(sum(created), 0) FROM order_rollup_day WHERE pid = ${pid})
         + (SELECT COALESCE(sum(created), 0) FROM order_rollup_pending WHERE pid = ${pid}) AS n`;
  return Number(row.n);
}

export async function getSettings(sql: SQL): Promise<Record<string, string>> {
  const rows = (await sql`SELECT key, value FROM settings`) as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export async function setSetting(sql: SQL, key: string, value: string): Promise<void> {
  await sql`INSERT INTO settings (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
}

/** Two instances starting at once (the platform key pair) keep the first value written. */
export async function initSetting(sql: SQL, key: string, value: string): Promise<string> {
  await sql`INSERT INTO settings (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`;
  const [row] = await sql`SELECT value FROM settings WHERE key = ${key}`;
  return String(row.value);
}
