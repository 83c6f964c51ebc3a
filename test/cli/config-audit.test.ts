// Issue 17: the CLI's merchant, account, key and settings commands call the same core functions
// as the console and are audited as `cli`; the AppSecret and the private key they print are never
// in the log.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-audit-");
const db = join(dir, "audit.db");
const { xpay, json } = cliOn(db);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function audit(): { actor: string; action: string; target: string; before: string | null; after: string | null }[] {
  const d = new Database(db, { readonly: true });
  try {
    return d.query("SELECT actor, action, target, before_json AS before, after_json AS after FROM audit_log ORDER BY id").all() as never;
  } finally {
    d.close();
  }
}

test("each change is one audit row by cli; secrets and private keys stay out of it", () => {
  expect(xpay("migrate").code).toBe(0);
  const added = json("merchant", "add", "--name", "Shop", "--pid", "1001");
  expect(xpay("merchant", "set", "1001", "--notify-method", "GET", "--setting", "pay_tip=hi").code).toBe(0);
  expect(xpay("merchant", "disable", "1001").code).toBe(0);
  const rotated = json("merchant", "rotate-secret", "1001");
  const keys = json("keygen", "--pid", "1001");
  const account = json("channel", "add", "--pid", "1001", "--pay-type", "alipay", "--code", "a1", "--name", "A", "--qrcode", "https://qr.alipay.com/x", "--max", "50");
  expect(xpay("channel", "edit", String(account.id), "--max", "60").code).toBe(0);
  expect(xpay("channel", "disable", String(account.id)).code).toBe(0);
  expect(xpay("channel", "remove", String(account.id)).code).toBe(0);
  expect(xpay("settings", "set", "order_ttl", "600").code).toBe(0);
  expect(xpay("settings", "set", "third_account_secret", "a-third-party-secret").code).toBe(0);
  expect(xpay("settings", "set", "order_ttl", "5").code).toBe(1); // refused: no row

  const rows = audit();
  expect(rows.map((r) => [r.actor, r.action, r.target])).toEqual([
    ["cli", "merchant.add", "merchant:1001"],
    ["cli", "merchant.edit", "merchant:1001"],
    ["cli", "merchant.disable", "merchant:1001"],
    ["cli", "merchant.rotate_secret", "merchant:1001"],
    ["cli", "merchant.keygen", "merchant:1001"],
    ["cli", "account.add", `account:${account.id}`],
    ["cli", "account.edit", `account:${account.id}`],
    ["cli", "account.disable", `account:${account.id}`],
    ["cli", "account.remove", `account:${account.id}`],
    ["cli", "settings.set", "setting:order_ttl"],
    ["cli", "settings.set", "setting:third_account_secret"],
  ]);
  expect(JSON.parse(rows[6]!.before!)).toEqual({ max_amount_cents: 5000 });
  expect(JSON.parse(rows[9]!.after!)).toEqual({ order_ttl: "600" });
  const log = JSON.stringify(rows);
  for (const secret of [added.secret, rotated.secret, "a-third-party-secret", keys.merchant_private_key.split("\n")[1]]) expect(log).not.toContain(secret);
}, 60_000); // a dozen CLI processes; slow on a loaded machine
