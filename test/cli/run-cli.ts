// The real CLI as a child process on one database, and a snapshot of what that database holds, so a
// test can show that a refused command changed nothing.
import { Database } from "bun:sqlite";
import { expect } from "bun:test";

export interface Run {
  code: number | null;
  out: string;
  err: string;
}

export function cliOn(db: string) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.XPAY_DB;
  const xpay = (...args: string[]): Run => {
    const p = Bun.spawnSync([process.execPath, "src/cli/main.ts", "--db", db, ...args], { env });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  const json = (...args: string[]) => {
    const r = xpay(...args, "--json");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    return JSON.parse(r.out);
  };
  /** The command fails with exactly this one line on stderr, exit 1, and the database is as before. */
  const refused = (args: string[], message: string) => {
    const before = snapshot(db);
    const r = xpay(...args);
    expect({ args, err: r.err, code: r.code, out: r.out }).toEqual({ args, err: `error: ${message}\n`, code: 1, out: "" });
    expect(snapshot(db)).toBe(before);
  };
  return { xpay, json, refused };
}

const TABLES = ["merchants", "channel_accounts", "orders", "notifications", "clients", "settings"];

export function snapshot(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return JSON.stringify(TABLES.map((t) => db.query(`SELECT * FROM ${t} ORDER BY rowid`).all()));
  } finally {
    db.close();
  }
}
