// `xpay merchant show P --show-secret` prints the AppSecret through the same audited reveal as the
// console's setup helper (core/clients/setup.ts revealMerchantSecret): one audit row, actor cli,
// action merchant.reveal_secret, and the secret nowhere in it. Without the flag nothing is written.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-cli-show-");
const db = join(dir, "show.db");
const { xpay, json } = cliOn(db);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

function auditRows(): Record<string, unknown>[] {
  const d = new Database(db, { readonly: true });
  try {
    return d.query("SELECT * FROM audit_log WHERE action LIKE 'merchant.reveal%' ORDER BY id").all() as Record<string, unknown>[];
  } finally {
    d.close();
  }
}

test("--show-secret is audited as cli without the value; a plain show writes nothing", () => {
  expect(xpay("migrate").code).toBe(0);
  expect(xpay("merchant", "add", "--name", "Shop", "--pid", "1001", "--secret", SECRET).code).toBe(0);

  const plain = json("merchant", "show", "1001");
  expect(plain.secret).toBeUndefined();
  expect(xpay("merchant", "show", "1001").out).not.toContain(SECRET);
  expect(auditRows()).toEqual([]);

  expect(json("merchant", "show", "1001", "--show-secret").secret).toBe(SECRET);
  const text = xpay("merchant", "show", "1001", "--show-secret");
  expect(text.code).toBe(0);
  expect(text.out).toContain(SECRET);

  const rows = auditRows();
  expect(rows.map((r) => [r.actor, r.action, r.target, r.ip])).toEqual([
    ["cli", "merchant.reveal_secret", "merchant:1001", ""],
    ["cli", "merchant.reveal_secret", "merchant:1001", ""],
  ]);
  expect(JSON.stringify(rows)).not.toContain(SECRET);
});

test("an unknown merchant reveals nothing and writes nothing", () => {
  const before = auditRows().length;
  expect(xpay("merchant", "show", "77", "--show-secret")).toMatchObject({ code: 1, err: "error: no merchant with pid 77\n" });
  expect(auditRows().length).toBe(before);
});
