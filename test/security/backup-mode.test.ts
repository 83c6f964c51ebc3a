// Issue 14 item 6: a backup holds every merchant secret and the platform private key, so
// `xpay backup` writes it 0600 even under a permissive umask, and a bad target is one clear line.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";

const dir = tempDir("xpay-backup-");
const db = join(dir, "xpay.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI under umask 022, the usual default that makes new files world-readable. */
function xpay(...args: string[]) {
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  const p = Bun.spawnSync(["sh", "-c", `umask 022; exec '${process.execPath}' src/cli/main.ts --db '${db}' ${quoted}`], { env: { ...process.env, NO_COLOR: "1" } });
  return { code: p.exitCode, out: p.stdout.toString().trim(), err: p.stderr.toString().trim() };
}

test("setup: a database with a merchant secret", () => {
  expect(xpay("migrate").code).toBe(0);
  expect(xpay("merchant", "add", "--name", "Shop").code).toBe(0);
});

test("the backup file is 0600 and a complete copy; no staging folder is left behind", () => {
  const target = join(dir, "copy.db");
  const r = xpay("backup", target);
  expect(r.code).toBe(0);
  expect(statSync(target).mode & 0o777).toBe(0o600);
  const copy = new Database(target, { readonly: true });
  expect((copy.query("SELECT count(*) AS n FROM merchants").get() as { n: number }).n).toBe(1);
  copy.close();
  expect(readdirSync(dir).filter((f) => f.includes(".tmp-"))).toEqual([]);
});

test("an empty path is a one-line error, exit 1", () => {
  const r = xpay("backup", "");
  expect(r.code).toBe(1);
  expect(r.err).toContain("the backup path is empty");
  expect(r.err.split("\n")).toHaveLength(1);
});

test("a missing folder is a one-line error naming it, exit 1, and nothing is created", () => {
  const missing = join(dir, "no-such-folder");
  const r = xpay("backup", join(missing, "copy.db"));
  expect(r.code).toBe(1);
  expect(r.err).toBe(`error: backup failed: folder ${missing} does not exist; create it first`);
});

test("an existing file is refused and left untouched", () => {
  const target = join(dir, "taken.db");
  writeFileSync(target, "keep me");
  const r = xpay("backup", target);
  expect(r.code).toBe(1);
  expect(r.err).toContain("exists already");
  expect(r.err.split("\n")).toHaveLength(1);
  expect(Bun.file(target).size).toBe(7);
});
