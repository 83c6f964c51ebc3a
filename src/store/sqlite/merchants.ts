import type { Database } from "bun:sqlite";
import type { Merchant } from "../../core/types.ts";
import { toMerchant } from "../rows.ts";

export function addMerchant(db: Database, m: { pid?: number; name: string; secret: string; now: number }): Merchant {
  const row = db
    .query(
      `INSERT INTO merchants (pid, name, secret, created_at)
       VALUES (COALESCE($pid, (SELECT MAX(COALESCE(max(pid) + 1, 1001), 1001) FROM merchants)), $name, $secret, $now)
       RETURNING *`,
    )
    .get({ pid: m.pid ?? null, name: m.name, secret: m.secret, now: m.now }) as Record<string, unknown>;
  return toMerchant(row);
}

export function getMerchant(db: Database, pid: number): Merchant | null {
  const row = db.query("SELECT * FROM merchants WHERE pid = $pid").get({ pid }) as Record<string, unknown> | null;
  return row ? toMerchant(row) : null;
}

export function listMerchants(db: Database): Merchant[] {
  return (db.query("SELECT * FROM merchants ORDER BY pid").all() as Record<string, unknown>[]).map(toMerchant);
}

export function updateMerchant(
  db: Database,
  pid: number,
  patch: Partial<Pick<Merchant, "name" | "active" | "notifyMethod" | "rsaPublicKey" | "settings" | "secret">>,
): Merchant | null {
  const row = db
    .query(
      `UPDATE merchants SET
         name = COALESCE($name, name),
         secret = COALESCE($secret, secret),
         active = COALESCE($active, active),
         notify_method = COALESCE($notify_method, notify_method),
         rsa_public_key = CASE WHEN $set_key THEN $rsa_public_key ELSE rsa_public_key END,
         settings = COALESCE($settings, settings)
       WHERE pid = $pid RETURNING *`,
    )
    .get({
      pid,
      name: patch.name ?? null,
      secret: patch.secret ?? null,
      active: patch.active === undefined ? null : patch.active ? 1 : 0,
      notify_method: patch.notifyMethod ?? null,
      set_key: patch.rsaPublicKey !== undefined ? 1 : 0,
      rsa_public_key: patch.rsaPublicKey ?? null,
      settings: patch.settings ? JSON.stringify(patch.settings) : null,
    }) as Record<string, unknown> | null;
  return row ? toMerchant(row) : null;
}

/** Every order a merchant ever created, from the day rollup (migration 025): a row per day and account, not per order. */
export function merchantOrderTotal(db: Database, pid: number): number {
  return (db.query("SELECT COALESCE(sum(created), 0) AS n FROM order_rollup_day WHERE pid = $pid").get({ pid }) as { n: number }).n;
}
