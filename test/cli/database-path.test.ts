// Issue 15, "the database the operator means": a mistyped path is refused in one line and nothing
// is created; only serve and migrate create a database; a file that is not an xpay database is
// refused untouched; nothing writes to a schema newer than this binary (read-only commands still
// read it). Every case runs the real CLI as a child process.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { LATEST_VERSION, migrate } from "../../src/store/migrate.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import pkg from "../../package.json";
import { tempDir } from "../helpers.ts";

const MAIN = resolve("src/cli/main.ts");
const root = tempDir("xpay-dbpath-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A fresh empty folder to run in: whatever a command creates shows up in it. */
const emptyDir = () => {
  const d = join(root, `d${n++}`);
  Bun.spawnSync(["mkdir", d]);
  return d;
};

function xpay(cwd: string, args: string[], env: Record<string, string | undefined> = {}) {
  const e: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...env };
  for (const k of ["XPAY_DB", "XPAY_BASE_URL", "XPAY_PORT", "XPAY_HOST"]) if (!(k in env)) delete e[k];
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { cwd, env: e as Record<string, string> });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** Exactly one line on stderr, nothing on stdout, exit 1. */
function refused(r: { code: number | null; out: string; err: string }, message: string) {
  expect({ err: r.err, code: r.code, out: r.out }).toEqual({ err: `error: ${message}\n`, code: 1, out: "" });
}

const missing = (p: string, why = "") => `no database at ${p}${why}; set --db or XPAY_DB, or run \`xpay serve\` (or \`xpay migrate\`) to create one`;

// Every command but serve and migrate: readers and writers alike.
const COMMANDS: string[][] = [
  ["merchant", "list"], ["merchant", "show", "1001"], ["merchant", "add", "--name", "Shop"], ["merchant", "disable", "1001"],
  ["channel", "list"], ["channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "a", "--name", "A", "--qrcode", "https://qr.alipay.com/x"],
  ["keygen", "--pid", "1001"], ["order", "list"], ["order", "inspect", "1"], ["order", "close", "1"], ["settings", "list"], ["settings", "get", "order_ttl"],
  ["settings", "set", "order_ttl", "600"], ["simulate-pay", "1"], ["notify", "list"], ["notify", "show", "1"], ["notify", "replay", "1"],
  ["report", "list"], ["client", "list"], ["backup", "copy.db"], ["migrate", "--status"],
];

describe("a path where no database exists", () => {
  test.each(COMMANDS.map((c) => [c.join(" "), c]))("%s: one line, exit 1, no file created", (_name, args) => {
    const cwd = emptyDir();
    refused(xpay(cwd, ["--db", "./typo.db", ...(args as string[])]), missing("./typo.db"));
    expect(readdirSync(cwd)).toEqual([]);
  });

  test("the path from XPAY_DB and the default ./xpay.db are named the same way", () => {
    const cwd = emptyDir();
    refused(xpay(cwd, ["merchant", "add", "--name", "Shop"], { XPAY_DB: "/nonexistent-dir/typo.db" }), missing("/nonexistent-dir/typo.db"));
    refused(xpay(cwd, ["order", "list"]), missing("./xpay.db"));
    expect(readdirSync(cwd)).toEqual([]);
  });

  test("empty paths: --db \"\" and XPAY_DB= are one line each, nothing is created", () => {
    const cwd = emptyDir();
    for (const args of [["merchant", "list"], ["merchant", "add", "--name", "S"], ["migrate"], ["serve", "--port", "0"]]) {
      refused(xpay(cwd, ["--db", "", ...args]), "--db is empty; give the database file, e.g. --db /var/lib/xpay/xpay.db");
      refused(xpay(cwd, args, { XPAY_DB: "" }), "XPAY_DB is set but empty; set it to the database file (export XPAY_DB=/var/lib/xpay/xpay.db) or unset it for ./xpay.db");
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  test("migrate creates the database; then the same commands work", () => {
    const cwd = emptyDir();
    expect(xpay(cwd, ["--db", "./new.db", "migrate"]).code).toBe(0);
    expect(xpay(cwd, ["--db", "./new.db", "merchant", "add", "--name", "Shop"]).code).toBe(0);
    expect(xpay(cwd, ["--db", "./new.db", "merchant", "list"]).out).toContain("Shop");
  });

  test("migrate into a folder that does not exist: one line, nothing created", () => {
    const cwd = emptyDir();
    refused(xpay(cwd, ["--db", "./no/such/x.db", "migrate"]), `cannot open database ./no/such/x.db: folder ${join(cwd, "no/such")} does not exist; create it first`);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("a path that holds something else", () => {
  const cwd = emptyDir();
  const other = join(cwd, "app.db");
  const db = new Database(other);
  db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)");
  db.exec("INSERT INTO users (name) VALUES ('alice')");
  db.close();
  writeFileSync(join(cwd, "notes.txt"), "not a database\n");
  writeFileSync(join(cwd, "empty.db"), "");
  Bun.spawnSync(["mkdir", join(cwd, "folder")]);

  const cases: [string, string[], string][] = [
    ["another application's SQLite file", ["--db", "app.db", "serve", "--port", "0"], "app.db is a SQLite database of another application (no xpay schema); check --db or XPAY_DB"],
    ["another application's SQLite file (migrate)", ["--db", "app.db", "migrate"], "app.db is a SQLite database of another application (no xpay schema); check --db or XPAY_DB"],
    ["another application's SQLite file (a reader)", ["--db", "app.db", "order", "list"], "app.db is a SQLite database of another application (no xpay schema); check --db or XPAY_DB"],
    ["a text file", ["--db", "notes.txt", "merchant", "add", "--name", "S"], "notes.txt is not a SQLite database; check --db or XPAY_DB"],
    ["an empty file", ["--db", "empty.db", "merchant", "add", "--name", "S"], missing("empty.db", " (the file is empty)")],
    ["a folder", ["--db", "folder", "merchant", "list"], "folder is a folder, not a database file; give the file, e.g. --db folder/xpay.db"],
  ];
  test.each(cases)("%s: one line, exit 1, the file untouched", (_name, args, message) => {
    const before = Object.fromEntries(readdirSync(cwd).map((f) => [f, f === "folder" ? "" : readFileSync(join(cwd, f)).toString("base64")]));
    refused(xpay(cwd, args), message);
    const after = Object.fromEntries(readdirSync(cwd).map((f) => [f, f === "folder" ? "" : readFileSync(join(cwd, f)).toString("base64")]));
    expect(after).toEqual(before);
  });
});

describe("a schema newer than this binary (downgrade guard)", () => {
  const cwd = emptyDir();
  const path = join(cwd, "newer.db");
  expect(xpay(cwd, ["--db", path, "migrate"]).code).toBe(0);
  expect(xpay(cwd, ["--db", path, "merchant", "add", "--name", "Shop", "--pid", "1001"]).code).toBe(0);
  const db = new Database(path);
  db.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
  db.close();
  const message = `database ${path} has schema version ${LATEST_VERSION + 1}, newer than this xpay ${pkg.version} knows (${LATEST_VERSION}): a newer xpay upgraded it; run that version (or restore a backup made before the upgrade); this one will not write to it`;
  const bytes = () => readFileSync(path).toString("base64");

  test.each([
    ["serve", ["serve", "--port", "0"]], ["migrate", ["migrate"]], ["merchant add", ["merchant", "add", "--name", "X"]],
    ["settings set", ["settings", "set", "order_ttl", "600"]], ["channel add", ["channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "a", "--name", "A", "--qrcode", "https://qr.alipay.com/q"]],
  ])("%s refuses with both version numbers; the file is unchanged", (_name, args) => {
    const before = bytes();
    refused(xpay(cwd, ["--db", path, ...(args as string[])]), message);
    expect(bytes()).toBe(before);
    expect(readdirSync(cwd)).toEqual(["newer.db"]);
  });

  test("read-only commands still read it; migrate --status says it is newer", () => {
    const before = bytes();
    expect(xpay(cwd, ["--db", path, "merchant", "list"]).out).toContain("Shop");
    const status = xpay(cwd, ["--db", path, "migrate", "--status"]);
    expect(status.code).toBe(0);
    expect(status.out).toContain(message);
    expect(bytes()).toBe(before);
  });
});

describe("a schema older than this binary (after an upgrade of the binary)", () => {
  const cwd = emptyDir();
  const path = join(cwd, "older.db");
  const db = openDatabase(path);
  migrate(db, MIGRATIONS.slice(0, -1));
  db.query("INSERT INTO merchants (pid, name, secret, created_at) VALUES (1001, 'Old shop', 's', 0)").run();
  db.close();
  const version = () => {
    const d = new Database(path, { readonly: true });
    try {
      return (d.query("PRAGMA user_version").get() as { user_version: number }).user_version;
    } finally {
      d.close();
    }
  };

  test("readers read an upgraded copy and leave the file's schema alone (an old server may still run on it)", () => {
    const before = readFileSync(path).toString("base64");
    const r = xpay(cwd, ["--db", path, "merchant", "list"]);
    expect({ err: r.err, code: r.code }).toEqual({ err: "", code: 0 });
    expect(r.out).toContain("Old shop");
    expect(readFileSync(path).toString("base64")).toBe(before);
    expect(version()).toBe(MIGRATIONS.at(-2)!.version);
  });

  test("backup copies it as it is (a backup before the upgrade keeps the old schema)", () => {
    expect(xpay(cwd, ["--db", path, "backup", join(cwd, "before-upgrade.db")]).err).toBe("");
    const copy = new Database(join(cwd, "before-upgrade.db"), { readonly: true });
    expect(copy.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.at(-2)!.version });
    copy.close();
    expect(version()).toBe(MIGRATIONS.at(-2)!.version);
  });

  test("a writer migrates it", () => {
    expect(xpay(cwd, ["--db", path, "settings", "set", "order_ttl", "600"]).code).toBe(0);
    expect(version()).toBe(LATEST_VERSION);
  });
});
