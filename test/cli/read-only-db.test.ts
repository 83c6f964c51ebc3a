// Issue 15: a read-only database (a 0400 file, or a folder this user may not write) can still be
// read by the read-only commands; every command that writes fails with one line naming why; the
// file and its folder are left exactly as they were. As root every file is writable, so the
// commands run as the unprivileged user `nobody` (setpriv) when the tests run as root, from a copy
// that user can reach when the checkout is in a folder closed to it (test/as-other-user.ts).
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, chownSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { LATEST_VERSION, migrate } from "../../src/store/migrate.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { asRoot, OTHER_UID as NOBODY, otherUser } from "../as-other-user.ts";
import { tempDir } from "../helpers.ts";

const MAIN = resolve("src/cli/main.ts");
const root = tempDir("xpay-readonly-");
chmodSync(root, 0o755);
const other = otherUser(root);
const hasSetpriv = other.unavailable === null;
afterAll(() => {
  other.cleanup();
  rmSync(root, { recursive: true, force: true });
});

function xpay(db: string, ...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", HOME: root };
  delete env.XPAY_DB;
  delete env.XPAY_BASE_URL;
  const p = Bun.spawnSync(other.argv(["--db", db, ...args]), { env: env as Record<string, string>, cwd: other.cwd });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

// A database with a merchant, an account and a setting, written as root (or this user) first.
const source = join(root, "source.db");
const seed = (...args: string[]) => expect(Bun.spawnSync([process.execPath, MAIN, "--db", source, ...args], { env: { ...process.env, NO_COLOR: "1" } }).exitCode).toBe(0);
seed("migrate");
seed("merchant", "add", "--name", "Shop", "--pid", "1001");
seed("channel", "add", "--pid", "0", "--pay-type", "alipay", "--code", "a1", "--name", "Alipay A", "--qrcode", "https://qr.alipay.com/x");
seed("settings", "set", "order_ttl", "600");

/** A copy of the database in its own folder, owned by the user the commands run as. */
function layout(name: string, fileMode: number, folderMode: number): string {
  const folder = join(root, name);
  mkdirSync(folder);
  const path = join(folder, "xpay.db");
  copyFileSync(source, path);
  if (asRoot) chownSync(path, NOBODY, NOBODY);
  chmodSync(path, fileMode);
  chmodSync(folder, folderMode);
  return path;
}

const READS: [string[], string][] = [
  [["merchant", "list"], "Shop"], [["merchant", "show", "1001"], "Shop"], [["channel", "list"], "Alipay A"], [["order", "list"], "(none)"],
  [["order", "inspect", "1"], ""], [["settings", "get", "order_ttl"], "600"], [["settings", "list"], "order_ttl"], [["notify", "list"], "(none)"],
  [["report", "list"], "(none)"], [["client", "list"], "(none)"], [["migrate", "--status"], "applied  005"],
];
const WRITES: string[][] = [
  ["merchant", "add", "--name", "X"], ["merchant", "show", "1001", "--show-secret"], ["merchant", "disable", "1001"], ["channel", "disable", "1"], ["settings", "set", "order_ttl", "900"],
  ["keygen", "--pid", "1001"], ["migrate"], ["serve", "--port", "0"],
];

describe.skipIf(asRoot && !hasSetpriv)("a read-only database on an older schema", () => {
  // The schema of the release before this one: every migration but the last.
  const older = join(root, "older");
  mkdirSync(older);
  const path = join(older, "xpay.db");
  const db = openDatabase(path);
  migrate(db, MIGRATIONS.slice(0, -1));
  db.query("INSERT INTO merchants (pid, name, secret, created_at) VALUES (1001, 'Old shop', 's', 0)").run();
  db.close();
  if (asRoot) chownSync(path, NOBODY, NOBODY);
  chmodSync(path, 0o400);
  chmodSync(older, asRoot ? 0o755 : 0o555);

  test("the reading commands upgrade a copy in memory and read it; the file keeps its schema", () => {
    const before = readFileSync(path).toString("base64");
    const r = xpay(path, "merchant", "list");
    expect({ err: r.err, code: r.code }).toEqual({ err: "", code: 0 });
    expect(r.out).toContain("Old shop");
    expect(xpay(path, "migrate", "--status").out).toContain(`pending  ${String(LATEST_VERSION).padStart(3, "0")}`);
    expect(readFileSync(path).toString("base64")).toBe(before);
    expect(readdirSync(older)).toEqual(["xpay.db"]);
  });

  test("backup copies the file as it is: the old schema, not an upgraded one", () => {
    const target = join(root, "older-copy.db");
    if (asRoot) chmodSync(root, 0o777);
    try {
      expect(xpay(path, "backup", target).err).toBe("");
    } finally {
      chmodSync(root, 0o755);
    }
    const copy = new Database(target, { readonly: true });
    expect(copy.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.at(-2)!.version });
    copy.close();
  });
});

describe.skipIf(asRoot && !hasSetpriv)("a read-only database", () => {
  const cases: [string, number, number, string][] = [
    ["a 0400 file in a writable folder", 0o400, 0o777, "file mode 0400, owner uid %UID%"],
    ["a 0600 file in a folder this user may not write", 0o600, 0o755, "folder %DIR% is not writable, and SQLite keeps its -wal and -shm files there"],
    ["a 0400 file in a folder this user may not write", 0o400, 0o755, "file mode 0400, owner uid %UID%"],
  ];
  for (const [name, fileMode, folderMode, why] of cases) {
    // As a non-root user the folder is this user's own: 0555 makes it read-only.
    const path = layout(name.replace(/\W+/g, "-"), fileMode, asRoot ? folderMode : folderMode === 0o755 ? 0o555 : folderMode);
    const folder = join(path, "..");
    const uid = asRoot ? NOBODY : process.getuid!();
    const reason = why.replace("%UID%", String(uid)).replace("%DIR%", folder);
    const state = () => JSON.stringify(readdirSync(folder).sort().map((f) => [f, readFileSync(join(folder, f)).toString("base64")]));
    const before = state();

    test(`${name}: the read-only commands read it`, () => {
      for (const [args, shows] of READS) {
        const r = xpay(path, ...args);
        if (args[1] === "inspect") {
          expect(r.err).toBe("error: no order 1\n"); // read, and found nothing: not a database error
          continue;
        }
        expect({ args, err: r.err, code: r.code }).toEqual({ args, err: "", code: 0 });
        expect(r.out).toContain(shows);
      }
      expect(state()).toBe(before);
    });

    test(`${name}: every command that writes is one line naming why, and nothing changes`, () => {
      for (const args of WRITES) {
        const r = xpay(path, ...args);
        expect({ args, err: r.err, code: r.code, out: r.out }).toEqual({
          args, code: 1, out: "",
          err: `error: database ${path} is read-only here (${reason}) and this command writes to it: give this user write access to the file and its folder, or only read (list, show, inspect, get)\n`,
        });
      }
      expect(state()).toBe(before);
    });

    test(`${name}: backup copies it`, () => {
      const target = join(root, `copy-${name.replace(/\W+/g, "-")}.db`);
      if (asRoot) chmodSync(root, 0o777);
      try {
        const r = xpay(path, "backup", target);
        expect({ err: r.err, code: r.code }).toEqual({ err: "", code: 0 });
      } finally {
        chmodSync(root, 0o755);
      }
      expect(Bun.spawnSync([process.execPath, MAIN, "--db", target, "merchant", "list"], { env: { ...process.env, NO_COLOR: "1" } }).stdout.toString()).toContain("Shop");
      expect(state()).toBe(before);
    });
  }
});
