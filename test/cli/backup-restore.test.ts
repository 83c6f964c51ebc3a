// `xpay backup` by hand and with --dir/--keep, and `xpay restore`, on real SQLite files, with a
// real `xpay serve` on a free port for "online" and "never under a running serve".
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BACKUP_NAME } from "../../src/core/backup-files.ts";
import { LATEST_VERSION } from "../../src/store/migrate.ts";
import { tempDir } from "../helpers.ts";
import { cliOn } from "./run-cli.ts";

const dir = tempDir("xpay-backup-restore-");
const db = join(dir, "xpay.db");
const { xpay } = cliOn(db);
const live: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of live) if (p.exitCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A real `xpay serve` on a free port; resolves once it listens. */
async function serve(path: string) {
  const p = Bun.spawn([process.execPath, "src/cli/main.ts", "--db", path, "serve", "--port", "0", "--no-admin"], { env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  live.push(p);
  const reader = p.stdout.getReader();
  let out = "";
  while (!out.includes("listening")) {
    const c = await reader.read();
    if (c.done) throw new Error(`serve stopped: ${out}${await new Response(p.stderr).text()}`);
    out += new TextDecoder().decode(c.value);
  }
  reader.releaseLock();
  return { port: Number(/127\.0\.0\.1:(\d+)/.exec(out)![1]), stop: async () => (p.kill("SIGTERM"), await p.exited) };
}

const merchants = (path: string) => {
  const d = new Database(path, { readonly: true });
  try {
    return (d.query("SELECT name FROM merchants ORDER BY pid").all() as { name: string }[]).map((r) => r.name);
  } finally {
    d.close();
  }
};

beforeAll(() => {
  expect(xpay("migrate").code).toBe(0);
  expect(xpay("merchant", "add", "--name", "Before").code).toBe(0);
});

describe("xpay backup", () => {
  test("a second backup to the same dated name is refused in one line that names --dir; the first file stays", () => {
    const file = join(dir, "xpay-2026-11-26.db");
    expect(xpay("backup", file).code).toBe(0);
    const before = statSync(file).mtimeMs;
    const r = xpay("backup", file);
    expect({ code: r.code, out: r.out }).toEqual({ code: 1, out: "" });
    expect(r.err).toBe(`error: backup failed: ${file} exists already; choose a new file name (or let xpay name and rotate them: xpay backup --dir FOLDER --keep N)\n`);
    expect(statSync(file).mtimeMs).toBe(before);
  });

  test("--dir --keep while serve runs: dated 0600 files, the oldest of xpay's own removed, other files left alone", async () => {
    const server = await serve(db);
    try {
      const folder = join(dir, "rotated"); // made by the command (0700)
      const got: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = xpay("backup", "--dir", folder, "--keep", "2", "--json");
        expect(r.err).toBe("");
        got.push(JSON.parse(r.out).file);
        if (i === 0) writeFileSync(join(folder, "xpay-mine.db"), "the operator's own");
        await Bun.sleep(1050); // a new second: a new name (the same second gets a -2 suffix)
      }
      expect((statSync(folder).mode & 0o777).toString(8)).toBe("700");
      const names = readdirSync(folder).sort();
      expect(names).toEqual(["xpay-mine.db", ...got.slice(1).map((f) => f.slice(folder.length + 1))].sort());
      for (const n of names.filter((x) => BACKUP_NAME.test(x))) {
        expect((statSync(join(folder, n)).mode & 0o777).toString(8)).toBe("600");
        expect(merchants(join(folder, n))).toEqual(["Before"]); // a whole database, taken under a running serve
      }
      expect(existsSync(got[0]!)).toBe(false);
    } finally {
      await server.stop();
    }
  });

  test("--keep without --dir, both a file and --dir, or neither: one line each", () => {
    expect(xpay("backup", "--keep", "3").err).toContain("give a new backup file");
    expect(xpay("backup", join(dir, "x.db"), "--dir", dir).err).toContain("not both");
    expect(xpay("backup", join(dir, "y.db"), "--keep", "3").err).toBe("error: --keep works with --dir (the folder whose backups it rotates)\n");
    expect(xpay("backup", "--dir", dir, "--keep", "0").err).toContain("--keep takes how many backups to keep");
  });
});

describe("xpay restore", () => {
  const backup = join(dir, "restore-me.db");
  beforeAll(() => {
    expect(xpay("backup", backup).code).toBe(0);
    expect(xpay("merchant", "add", "--name", "After").code).toBe(0);
  });
  const restoreTo = (target: string, ...args: string[]) => cliOn(target).xpay("restore", ...args);

  test("into a new path: the backup's rows, mode 0600", () => {
    const target = join(dir, "new.db");
    const r = restoreTo(target, backup);
    expect(r.err).toBe("");
    expect(r.out).toContain(`restored ${backup} -> ${target}`);
    expect(merchants(target)).toEqual(["Before"]);
    expect((statSync(target).mode & 0o777).toString(8)).toBe("600");
  });

  test("over an existing database: refused without --force; refused while serve runs on it, even with --force", async () => {
    const r = restoreTo(db, backup);
    expect({ code: r.code, err: r.err }).toEqual({ code: 1, err: `error: ${db} holds a database already; restore into a new path (--db NEW), or add --force to replace it (it is kept as ${db}.before-restore-<time>)\n` });
    const server = await serve(db);
    try {
      const busy = restoreTo(db, backup, "--force");
      expect(busy.code).toBe(1);
      expect(busy.err).toMatch(new RegExp(`^error: xpay serve runs on ${db} \\(pid \\d+ on .+, port ${server.port}, started .+\\): stop it first \\(sudo systemctl stop xpay\\), then restore; nothing restored\\n$`));
      expect(merchants(db)).toEqual(["Before", "After"]);
    } finally {
      await server.stop();
    }
    // Stopped: --force replaces it, and the replaced database is kept whole beside it.
    const done = restoreTo(db, backup, "--force", "--json");
    expect(done.err).toBe("");
    const j = JSON.parse(done.out);
    expect(j).toMatchObject({ restored: backup, to: db, version: LATEST_VERSION });
    expect(merchants(db)).toEqual(["Before"]);
    expect(merchants(j.moved_aside)).toEqual(["Before", "After"]);
    expect(existsSync(`${db}-wal`)).toBe(false);
  });

  test("the file is checked first: missing, not SQLite, another application's, damaged, newer schema; the target is untouched", () => {
    const target = join(dir, "untouched.db");
    const junk = join(dir, "junk.db");
    writeFileSync(junk, "not a database at all, just some bytes");
    const foreign = join(dir, "foreign.db");
    new Database(foreign).exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    const newer = join(dir, "newer.db");
    expect(xpay("backup", newer).code).toBe(0);
    const n = new Database(newer);
    n.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
    n.close();
    const damaged = join(dir, "damaged.db");
    expect(xpay("backup", damaged).code).toBe(0);
    const bytes = new Uint8Array(require("node:fs").readFileSync(damaged));
    bytes.fill(0x5a, 4096 * 3, 4096 * 3 + 2000); // a page in the middle overwritten
    writeFileSync(damaged, bytes);
    const cases: [string, RegExp][] = [
      [join(dir, "missing.db"), /^error: no backup at .*missing\.db; give the file xpay backup wrote\n$/],
      [junk, /is not a SQLite database/],
      [foreign, /another application/],
      [newer, new RegExp(`has schema version ${LATEST_VERSION + 1}, newer than this xpay knows`)],
      [damaged, /is damaged \(integrity check: .+\); nothing restored: take an older backup/],
    ];
    for (const [file, message] of cases) {
      const r = restoreTo(target, file);
      expect({ file, code: r.code, out: r.out }).toEqual({ file, code: 1, out: "" });
      expect(r.err).toMatch(message);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(existsSync(target)).toBe(false);
    }
  });
});
