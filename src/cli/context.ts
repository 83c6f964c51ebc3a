// What every command file gets: a lazily opened Gateway on the --db file, and output helpers that
// print for people (picocolors) or for scripts (--json).
import type { Command } from "commander";
import pc from "picocolors";
import type { Gateway } from "../core/gateway.ts";
import { printable } from "../core/log.ts";
import { openGateway } from "../server/bootstrap.ts";
import { accessOf, chooseDbPath, type DbAccess } from "./database.ts";
import { CliError } from "./errors.ts";
import { openStore } from "./open-store.ts";
import { checkBaseUrl } from "./serve-input.ts";

export { CliError };

export interface Cli {
  /**
   * The gateway on the database chosen by --db, XPAY_DB or ./xpay.db; opened on first use, the way
   * the running command may (see accessOf: only serve and migrate create a database).
   */
  open(o?: { baseUrl?: string; trustProxy?: boolean | number; baseUrlExplicit?: boolean; upgrade?: boolean }): Gateway;
  dbPath(): string;
  /** How the running command may use the database. */
  access(): DbAccess;
  close(): void;
}

export function createCli(program: Command): Cli {
  let gw: Gateway | null = null;
  let command = "";
  let options: Record<string, unknown> = {};
  program.hook("preAction", (_root, action) => {
    const names: string[] = [];
    for (let c: Command | null = action; c && c !== program; c = c.parent) names.unshift(c.name());
    command = names.join(" ");
    options = action.opts();
  });
  const dbPath = () => chooseDbPath(program.opts().db as string | undefined, process.env.XPAY_DB);
  const access = () => accessOf(command, options);
  return {
    dbPath,
    access,
    open(o = {}) {
      if (!gw) {
        const path = dbPath();
        const envBase = process.env.XPAY_BASE_URL === undefined ? undefined : checkBaseUrl(process.env.XPAY_BASE_URL, "XPAY_BASE_URL");
        const store = openStore(path, access(), { upgrade: o.upgrade });
        const explicit = o.baseUrlExplicit ?? envBase !== undefined;
        gw = openGateway({ db: path, store, baseUrl: o.baseUrl ?? envBase, trustProxy: o.trustProxy, baseUrlExplicit: explicit });
      }
      return gw;
    },
    close() {
      gw?.store.close();
      gw = null;
    },
  };
}

/**
 * Links printed by a command (the cashier URL) use the base URL payers see: XPAY_BASE_URL, else
 * the one the last `xpay serve` on this database recorded, else the default.
 */
export async function useServedBaseUrl(gw: Gateway): Promise<void> {
  if (process.env.XPAY_BASE_URL !== undefined) return;
  const served = (await gw.settings()).str("base_url");
  if (served !== "") gw.baseUrl = served.replace(/\/+$/, "");
}

export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

/** A plain aligned table; column headers dimmed. */
export function printTable(rows: Record<string, unknown>[], columns: string[]): void {
  if (rows.length === 0) {
    console.log(pc.dim("(none)"));
    return;
  }
  const cells = rows.map((r) => columns.map((c) => printable(String(r[c] ?? "")))); // a cell may hold a stranger's text
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  console.log(pc.dim(columns.map((c, i) => c.padEnd(widths[i]!)).join("  ")));
  for (const row of cells) console.log(row.map((v, i) => v.padEnd(widths[i]!)).join("  "));
}

export function intArg(name: string, value: string | undefined, o: { min?: number } = {}): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,12}$/.test(value) || Number(value) < (o.min ?? 0)) throw new CliError(`${name} must be a whole number${o.min ? ` >= ${o.min}` : ""}`);
  return Number(value);
}

export function requireInt(name: string, value: string | undefined, o: { min?: number } = {}): number {
  const n = intArg(name, value, o);
  if (n === undefined) throw new CliError(`${name} is required`);
  return n;
}
