// `xpay db copy --from PATH_OR_URL --to PATH_OR_URL`: an operator's whole data from SQLite to
// PostgreSQL (to run several instances) or back (to leave it), through store/copy. A SQLite source
// is opened read-only and a SQLite destination is created or opened without migrating, both the
// way every command opens a file (cli/database.ts: the same refusals of a folder, a missing file,
// another application's file, a newer schema). Locations are printed without a password.
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import pc from "picocolors";
import { findTestData, testDatabaseProblem } from "../core/test-database.ts";
import { ForeignDatabaseError } from "../store/postgres/migrate.ts";
import { describePostgresUrl, isPostgresUrl } from "../store/postgres/url.ts";
import { copyDatabase } from "../store/copy/copy.ts";
import { pgSource } from "../store/copy/pg-source.ts";
import { pgTarget } from "../store/copy/pg-target.ts";
import { sqliteSource } from "../store/copy/sqlite-source.ts";
import { sqliteTarget } from "../store/copy/sqlite-target.ts";
import { TestDataError } from "../store/copy/leave-out.ts";
import { CopyError, type CopySource, type CopyTarget } from "../store/copy/types.ts";
import { type Cli, CliError, printJson } from "./context.ts";
import { openFor } from "./database.ts";
import { examples } from "./help.ts";

const describe = (v: string) => (isPostgresUrl(v) ? describePostgresUrl(v) : v);

/** Two spellings of one database: the same file (through a link too), or the same server and database name. */
export function sameDatabase(a: string, b: string): boolean {
  if (isPostgresUrl(a) !== isPostgresUrl(b)) return false;
  if (isPostgresUrl(a)) {
    try {
      const [x, y] = [new URL(a.trim()), new URL(b.trim())];
      const db = (u: URL) => decodeURIComponent(u.pathname.replace(/^\/+/, "")) || decodeURIComponent(u.username);
      return x.hostname.toLowerCase() === y.hostname.toLowerCase() && (x.port || "5432") === (y.port || "5432") && db(x) === db(y);
    } catch {
      return a.trim() === b.trim();
    }
  }
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return real(a) === real(b);
}

function openSource(from: string): CopySource {
  return isPostgresUrl(from) ? pgSource(from) : sqliteSource(openFor(from, "read", { upgrade: false }), from);
}

function openTarget(to: string): CopyTarget {
  return isPostgresUrl(to) ? pgTarget(to) : sqliteTarget(openFor(to, "create", { upgrade: false }), to);
}

function worded(e: unknown, from: string, to: string): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof CopyError) return new CliError(e.message);
  if (e instanceof TestDataError) {
    return new CliError(`${testDatabaseProblem(`source ${e.where}`, e.what)}; a copy would carry them into production: add --drop-test-data to copy without them (the test settings, the test merchant and every row of theirs)`);
  }
  if (e instanceof ForeignDatabaseError) return new CliError(`destination ${describe(to)} holds tables of another application (no xpay schema); give an empty database`);
  const why = e instanceof Error ? e.message : String(e);
  return new CliError(`db copy from ${describe(from)} to ${describe(to)} failed: ${why}`);
}

/** The whole copy, its failures as one CLI line (`xpay restore` into PostgreSQL runs it too). */
export async function copyOrExplain(from: string, to: string, dropTestData = false): Promise<Awaited<ReturnType<typeof copyDatabase>>> {
  let source: CopySource | null = null;
  try {
    source = openSource(from);
    return await copyDatabase(source, () => openTarget(to), { testData: { find: findTestData, drop: dropTestData } });
  } catch (e) {
    throw worded(e, from, to);
  } finally {
    await source?.close();
  }
}

export function register(program: Command, _cli: Cli): void {
  const db = program
    .command("db")
    .description("whole-database operations: copy one database into another (SQLite, PostgreSQL)")
    .addHelpText("after", examples("xpay db copy --from /var/lib/xpay/xpay.db --to postgres://xpay@127.0.0.1/xpay"));
  db.command("copy")
    .description("copy every row of an xpay database into an empty one: SQLite to PostgreSQL, PostgreSQL to SQLite (or the same engine); one transaction, counts verified")
    .requiredOption("--from <path-or-url>", "the source: a SQLite file or a postgres:// URL, at this xpay's schema version (read in one snapshot, never written)")
    .requiredOption("--to <path-or-url>", "the destination: a new or empty SQLite file, or an empty PostgreSQL database (its schema is created)")
    .option("--drop-test-data", "the source was made by `xpay dev`: leave its test keys, its mark and its test merchant (with every row of theirs) out of the copy; without it such a source is refused")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      examples(
        "xpay db copy --from /var/lib/xpay/xpay.db --to postgres://xpay@127.0.0.1/xpay",
        "xpay db copy --from postgres://xpay@db.internal/xpay --to ./xpay-from-pg.db",
        "xpay db copy --from ./xpay-dev.db --to /var/lib/xpay/xpay.db --drop-test-data   # keep what you set up under xpay dev, not its public test keys",
      ),
    )
    .action(async (o: { from: string; to: string; dropTestData?: boolean; json?: boolean }) => {
      if (sameDatabase(o.from, o.to)) throw new CliError(`--from and --to name the same database (${describe(o.from)}); give another destination`);
      if (!isPostgresUrl(o.from) && !existsSync(o.from)) throw new CliError(`no database at ${o.from} (--from): give the SQLite file or the postgres:// URL to copy from`);
      const started = performance.now();
      const result = await copyOrExplain(o.from, o.to, o.dropTestData === true);
      const seconds = Math.round(performance.now() - started) / 1000;
      const rows = result.tables.reduce((a, t) => a + t.rows, 0);
      const from = describe(o.from);
      const to = describe(o.to);
      const left = result.left ? { left_out: { what: result.left.what, tables: Object.fromEntries(result.left.tables.map((t) => [t.name, t.rows])) } } : {};
      if (o.json) return printJson({ from, to, version: result.version, tables: Object.fromEntries(result.tables.map((t) => [t.name, t.rows])), rows, audited: result.audited, verified: true, seconds, ...left });
      console.log(`${pc.green("copied")} ${from} -> ${to} ${pc.dim(`(schema version ${result.version})`)}`);
      const width = Math.max(...result.tables.map((t) => t.name.length));
      for (const t of result.tables) {
        const note = result.audited && t.name === "audit_log" ? pc.dim("  (+1 in the destination: this copy, as db.copy)") : "";
        console.log(`  ${t.name.padEnd(width)}  ${String(t.rows).padStart(9)}${note}`);
      }
      console.log(`${pc.green("verified")} ${result.tables.length} tables, ${rows} rows: the destination holds the same counts ${pc.dim(`(${seconds} s)`)}`);
      if (result.left) {
        const rowsLeft = result.left.tables.map((t) => `${t.name} ${t.rows}`).join(", ");
        console.log(`${pc.yellow("left out")} test data: ${result.left.what.join(", ")} ${pc.dim(`(rows: ${rowsLeft}); the copy gets a new platform key pair when it first serves`)}`);
      } else if (o.dropTestData) console.log(pc.dim("no test data in the source: nothing left out"));
    });
}
